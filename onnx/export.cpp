// Exporting a d2s graph as an ONNX model (export.h): the walk over the graph, its
// inputs, outputs, parameters, and the If/Loop subgraphs. What each op becomes is in
// op_export.cpp.
#include "onnx/export.h"

#include <limits>

#include "core/base/error.h"
#include "onnx/export_emitter.h"
#include "onnx/model_check.h"
#include "onnx/tensor_proto.h"

namespace d2s::onnx_io {

std::string Emitter::fresh(std::string_view hint) {
  std::string base(hint.empty() ? "v" : hint);
  std::string name = base;
  for (int i = 1; used_.count(name); ++i) name = base + "." + std::to_string(i);
  used_.insert(name);
  return name;
}

void Emitter::bind(const ir::Value* v, const std::string& onnx_name) {
  names_[{graph(), v}] = onnx_name;
}

std::string Emitter::name(const ir::Value* v) {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto found = names_.find({*it, v});
    if (found != names_.end()) return found->second;
  }
  const ir::Node* producer = v->node();
  if (producer->kind() == ir::kind::Constant) {
    const IValue* value = constant(v);
    std::string n;
    if (value->is_tensor()) {
      n = const_tensor(value->to_tensor());
    } else if (value->is_int() || value->is_bool() || value->is_double()) {
      n = const_scalar(value->to_double(), dtype(v));
    } else if (value->is_list() || value->is_tuple()) {
      std::vector<int64_t> ints;
      if (!constant_ints(v, &ints)) fail(*producer, "a constant list that is not ints");
      n = const_ints(ints);
    } else {
      fail(*producer, "the constant " + value->repr() + " has no ONNX value");
    }
    bind(v, n);
    return n;
  }
  if (producer->kind() == ir::kind::ListConstruct) return int_list(v, *producer);
  fail(*producer, "value %" + std::to_string(v->unique()) + " of " + producer->kind() +
                      " is used where ONNX needs a tensor");
}

onnx::NodeProto* Emitter::add(const std::string& op_type, const std::vector<std::string>& inputs,
                              const std::vector<std::string>& outputs) {
  onnx::NodeProto* n = graph()->add_node();
  n->set_op_type(op_type);
  n->set_name(fresh(op_type));
  for (const auto& i : inputs) n->add_input(i);
  for (const auto& o : outputs) n->add_output(o);
  return n;
}

std::string Emitter::add1(const std::string& op_type, const std::vector<std::string>& inputs,
                          const std::function<void(onnx::NodeProto*)>& attrs) {
  std::string out = fresh(op_type.substr(0, 1) == "C" ? "c" : "t");
  onnx::NodeProto* n = add(op_type, inputs, {out});
  if (attrs) attrs(n);
  return out;
}

std::string Emitter::const_tensor(const Tensor& t) {
  std::string out = fresh("const");
  onnx::NodeProto* n = add("Constant", {}, {out});
  onnx::AttributeProto* a = n->add_attribute();
  a->set_name("value");
  a->set_type(onnx::AttributeProto::TENSOR);
  tensor_to_proto(t, "", a->mutable_t());
  return out;
}

std::string Emitter::const_ints(const std::vector<int64_t>& values) {
  return const_tensor(Tensor::from_ints({static_cast<int64_t>(values.size())}, values));
}

std::string Emitter::const_scalar(double value, DType dtype) {
  return const_tensor(Tensor::scalar(value, dtype));
}

DType Emitter::dtype(const ir::Value* v) const {
  const ir::Type& t = v->type();
  switch (t.kind) {
    case ir::TypeKind::Int:
      return DType::Int64;
    case ir::TypeKind::Bool:
      return DType::Bool;
    case ir::TypeKind::Tensor:
      return t.dtype.value_or(DType::Float32);
    default:
      break;
  }
  if (const IValue* c = constant(v)) {
    if (c->is_int()) return DType::Int64;
    if (c->is_bool()) return DType::Bool;
    if (c->is_tensor()) return c->to_tensor().dtype();
  }
  return DType::Float32;
}

std::string Emitter::cast(const std::string& name, DType from, DType to) {
  if (from == to) return name;
  return add1("Cast", {name}, [&](onnx::NodeProto* n) {
    auto* a = n->add_attribute();
    a->set_name("to");
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(elem_type_of(to));
  });
}

std::string Emitter::name_as(const ir::Value* v, DType to) {
  if (const IValue* c = constant(v); c && c->is_number()) return const_scalar(c->to_double(), to);
  return cast(name(v), dtype(v), to);
}

const IValue* Emitter::constant(const ir::Value* v) {
  if (v->node()->kind() != ir::kind::Constant) return nullptr;
  return v->node()->attr("value");
}

bool Emitter::is_none(const ir::Value* v) {
  const IValue* c = constant(v);
  return c && c->is_none();
}

bool Emitter::constant_int(const ir::Value* v, int64_t* out) {
  const IValue* c = constant(v);
  if (!c || !(c->is_int() || c->is_bool())) return false;
  *out = c->to_int();
  return true;
}

bool Emitter::constant_ints(const ir::Value* v, std::vector<int64_t>* out) {
  out->clear();
  if (const IValue* c = constant(v)) {
    if (c->is_int()) {
      out->push_back(c->to_int());
      return true;
    }
    if (!c->is_list() && !c->is_tuple()) return false;
    for (const IValue& item : c->items()) {
      if (!item.is_int()) return false;
      out->push_back(item.to_int());
    }
    return true;
  }
  if (v->node()->kind() == ir::kind::ListConstruct) {
    for (const ir::Value* item : v->node()->inputs()) {
      int64_t i = 0;
      if (!constant_int(item, &i)) return false;
      out->push_back(i);
    }
    return true;
  }
  return false;
}

std::vector<const ir::Value*> Emitter::list_items(const ir::Value* list, const ir::Node& at) {
  const ir::Node* p = list->node();
  if (p->kind() != ir::kind::ListConstruct && p->kind() != ir::kind::TupleConstruct) {
    fail(at, at.kind() + " takes a list made by " + p->kind() +
                 "; ONNX export needs the list written out where it is used ([a, b])");
  }
  return {p->inputs().begin(), p->inputs().end()};
}

std::string Emitter::int_list(const ir::Value* list, const ir::Node& at) {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto found = names_.find({*it, list});
    if (found != names_.end()) return found->second;
  }
  std::vector<int64_t> ints;
  if (constant_ints(list, &ints)) return const_ints(ints);
  if (list->node()->kind() != ir::kind::ListConstruct) {
    fail(at, at.kind() +
                 " needs a list of ints that ONNX export can follow (a literal list "
                 "or x.size())");
  }
  std::vector<std::string> parts;
  const std::string zero = const_ints({0});
  for (const ir::Value* item : list->node()->inputs()) {
    if (dtype(item) != DType::Int64 && item->type().kind != ir::TypeKind::Any) {
      fail(at, "a list item of type " + item->type().str() + " where ONNX export needs ints");
    }
    parts.push_back(add1("Unsqueeze", {name_as(item, DType::Int64), zero}));
  }
  std::string out = parts.size() == 1 ? parts[0] : add1("Concat", parts, [](onnx::NodeProto* n) {
    auto* a = n->add_attribute();
    a->set_name("axis");
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(0);
  });
  return out;
}

bool Emitter::rank_of(const ir::Value* v, int64_t* rank) {
  const ir::Type& t = v->type();
  if (t.kind == ir::TypeKind::Int || t.kind == ir::TypeKind::Float ||
      t.kind == ir::TypeKind::Bool) {
    *rank = 0;
    return true;
  }
  if (!t.is_tensor() || !t.shape) return false;
  *rank = static_cast<int64_t>(t.shape->size());
  return true;
}

void Emitter::set_type(onnx::ValueInfoProto* info, const ir::Type& type, bool with_shape) const {
  auto* tensor = info->mutable_type()->mutable_tensor_type();
  DType d = DType::Float32;
  if (type.kind == ir::TypeKind::Int) d = DType::Int64;
  if (type.kind == ir::TypeKind::Bool) d = DType::Bool;
  if (type.is_tensor() && type.dtype) d = *type.dtype;
  tensor->set_elem_type(elem_type_of(d));
  if (!with_shape) return;
  if (!type.is_tensor()) {
    tensor->mutable_shape();  // a scalar: rank 0
    return;
  }
  if (!type.shape) return;
  auto* shape = tensor->mutable_shape();
  for (const ir::Dim& dim : *type.shape) {
    auto* d2 = shape->add_dim();
    if (dim.is_known()) {
      d2->set_dim_value(dim.size);
    } else if (!dim.symbol.empty()) {
      d2->set_dim_param(dim.symbol);
    }
  }
}

void Emitter::fail(const ir::Node& node, const std::string& message,
                   const std::string& hint) const {
  throw Error("cannot export to ONNX: " + message, node.range(),
              hint.empty() ? "docs/onnx.md lists the ops ONNX export maps" : hint);
}

void Emitter::note(const ir::Node& node, const std::string& message) {
  if (!notes_) return;
  std::string where = node.range().file ? node.range().file->path() + ":" : "";
  notes_->push_back(where + std::to_string(node.range().line) + ": note: " + message);
}

void Emitter::in_subgraph(onnx::GraphProto* g, const std::function<void()>& fill) {
  scopes_.push_back(g);
  try {
    fill();
  } catch (...) {
    scopes_.pop_back();
    throw;
  }
  scopes_.pop_back();
}

void Emitter::emit_subgraph_outputs(const std::vector<ir::Value*>& values,
                                    const std::vector<ir::Type>& types, onnx::GraphProto* g) {
  for (size_t i = 0; i < values.size(); ++i) {
    DType want = DType::Float32;
    ir::Type t = types[i];
    if (t.kind == ir::TypeKind::Int) want = DType::Int64;
    if (t.kind == ir::TypeKind::Bool) want = DType::Bool;
    if (t.is_tensor()) want = t.dtype.value_or(dtype(values[i]));
    if (t.kind == ir::TypeKind::Any) want = dtype(values[i]);
    std::string src = name_as(values[i], want);
    std::string out = fresh("out");
    add("Identity", {src}, {out});
    auto* info = g->add_output();
    info->set_name(out);
    ir::Type elem = t;
    if (t.kind == ir::TypeKind::Any) elem = values[i]->type();
    set_type(info, elem, false);
  }
}

void Emitter::emit_if(const ir::Node& node) {
  if (node.outputs().empty()) {
    // Without results an if can only print or assert, which ONNX cannot do.
    note(node, "this if yields no value (only prints or asserts) and is left out");
    return;
  }
  onnx::NodeProto* n = nullptr;
  std::string cond = name_as(node.input(0), DType::Bool);
  std::vector<std::string> outs;
  for (const ir::Value* o : node.outputs()) outs.push_back(fresh(o->debug_name()));
  n = add("If", {cond}, outs);
  std::vector<ir::Type> types;
  for (const ir::Value* o : node.outputs()) {
    if (o->type().kind == ir::TypeKind::Tuple || o->type().kind == ir::TypeKind::List) {
      fail(node, "an if whose result is a " + o->type().str() + " (ONNX If yields tensors)");
    }
    types.push_back(o->type());
  }
  const char* branch_names[2] = {"then_branch", "else_branch"};
  for (size_t b = 0; b < 2; ++b) {
    auto* a = n->add_attribute();
    a->set_name(branch_names[b]);
    a->set_type(onnx::AttributeProto::GRAPH);
    onnx::GraphProto* g = a->mutable_g();
    g->set_name(fresh(branch_names[b]));
    in_subgraph(g, [&] {
      emit_block(*node.blocks()[b]);
      emit_subgraph_outputs(node.blocks()[b]->outputs(), types, g);
    });
  }
  for (size_t i = 0; i < outs.size(); ++i) bind(node.output(i), outs[i]);
}

void Emitter::emit_loop(const ir::Node& node) {
  const ir::Block& body = *node.blocks()[0];
  std::string max_trip;
  int64_t m = 0;
  if (constant_int(node.input(0), &m) && m == std::numeric_limits<int64_t>::max()) {
    m = options_.while_max_trip_count;
    note(node, "this while loop gets a max trip count of " + std::to_string(m) +
                   " in the ONNX file (ONNX runtimes stop it there; d2s stops after as many "
                   "iterations)");
    max_trip = const_scalar(static_cast<double>(m), DType::Int64);
  } else {
    max_trip = name_as(node.input(0), DType::Int64);
  }
  std::vector<std::string> ins = {max_trip, name_as(node.input(1), DType::Bool)};
  std::vector<ir::Type> types;
  for (size_t i = 2; i < node.inputs().size(); ++i) {
    const ir::Value* carried = body.inputs()[i - 1];
    if (carried->type().kind == ir::TypeKind::Tuple || carried->type().kind == ir::TypeKind::List) {
      fail(node, "a loop that carries a " + carried->type().str() + " (ONNX Loop carries tensors)");
    }
    ir::Type t = carried->type();
    if (t.kind == ir::TypeKind::Any) t = node.input(i)->type();
    types.push_back(t);
    DType want = DType::Float32;
    if (t.kind == ir::TypeKind::Int) want = DType::Int64;
    if (t.kind == ir::TypeKind::Bool) want = DType::Bool;
    if (t.is_tensor()) want = t.dtype.value_or(dtype(node.input(i)));
    ins.push_back(name_as(node.input(i), want));
  }
  std::vector<std::string> outs;
  for (const ir::Value* o : node.outputs()) outs.push_back(fresh(o->debug_name()));
  onnx::NodeProto* n = add("Loop", ins, outs);
  auto* a = n->add_attribute();
  a->set_name("body");
  a->set_type(onnx::AttributeProto::GRAPH);
  onnx::GraphProto* g = a->mutable_g();
  g->set_name(fresh("loop_body"));
  in_subgraph(g, [&] {
    auto* iter = g->add_input();
    iter->set_name(fresh("iter"));
    set_type(iter, ir::Type::of_int(), true);
    bind(body.inputs()[0], iter->name());
    auto* cond_in = g->add_input();
    cond_in->set_name(fresh("cond_in"));
    set_type(cond_in, ir::Type::of_bool(), true);
    for (size_t i = 1; i < body.inputs().size(); ++i) {
      auto* in = g->add_input();
      in->set_name(fresh(body.inputs()[i]->debug_name()));
      set_type(in, types[i - 1], false);
      bind(body.inputs()[i], in->name());
    }
    emit_block(body);
    std::vector<ir::Type> out_types = {ir::Type::of_bool()};
    out_types.insert(out_types.end(), types.begin(), types.end());
    emit_subgraph_outputs(body.outputs(), out_types, g);
  });
  for (size_t i = 0; i < outs.size(); ++i) bind(node.output(i), outs[i]);
}

void Emitter::emit_node(const ir::Node& node) {
  const std::string& k = node.kind();
  if (k == ir::kind::If) return emit_if(node);
  if (k == ir::kind::Loop) return emit_loop(node);
  // Emitted where they are used (constants, lists) or not at all.
  if (k == ir::kind::Constant || k == ir::kind::ListConstruct || k == ir::kind::TupleConstruct) {
    return;
  }
  if (k == ir::kind::Print) {
    note(node, "print() is not in the ONNX file (ONNX has no printing)");
    return;
  }
  if (k == ir::kind::Guard) return;  // trace guards: only with --allow-lossy
  if (k == "aten::backward") {
    note(node, "backward() is not in the ONNX file (it computes the forward pass only)");
    return;
  }
  if (k == "aten::format" || k == "aten::str") {
    // Text for print() only (which is left out); any other use fails at that use.
    bool only_printed = true;
    for (const ir::Value* o : node.outputs()) {
      for (const ir::Use& u : o->uses()) {
        only_printed =
            only_printed && (u.user->kind() == ir::kind::Print || u.user->kind() == "aten::format");
      }
    }
    if (only_printed) return;
  }
  if (k == ir::kind::RaiseException) {
    note(node, "this assert is not checked by the ONNX file (ONNX cannot raise)");
    return;
  }
  std::string key = node.overload().empty() ? k : k + "." + node.overload();
  const ExportFn* fn = find_export(key);
  if (!fn) fn = find_export(k);
  if (!fn) {
    fail(node, "no ONNX mapping for '" + key + "'",
         "docs/onnx.md lists the ops ONNX export maps; rewrite this line with those");
  }
  (*fn)(*this, node);
}

void Emitter::emit_block(const ir::Block& block) {
  for (const ir::Node* node : block.nodes()) emit_node(*node);
}

std::string export_onnx(const ir::Graph& graph, const ExportOptions& options,
                        std::vector<std::string>* notes) {
  if (options.opset < kMinOpset || options.opset > kMaxOpset) {
    throw Error("opset " + std::to_string(options.opset) + " is not one d2s writes", SourceRange(),
                "give --opset 13 to 17");
  }
  onnx::ModelProto model;
  model.set_ir_version(kIrVersion);
  model.set_producer_name("d2s");
  model.set_producer_version(options.producer_version);
  auto* opset = model.add_opset_import();
  opset->set_domain("");
  opset->set_version(options.opset);
  onnx::GraphProto* g = model.mutable_graph();
  g->set_name(graph.entry.empty() ? "d2s" : graph.entry);

  Emitter em(options, notes);
  em.push_root(g);
  std::map<std::string, const Tensor*> params;
  for (const auto& [pname, t] : options.parameters) params[pname] = &t;
  size_t arg_index = 0;
  for (const ir::Value* in : graph.inputs()) {
    const std::string& vname = in->debug_name();
    if (auto it = params.find(vname); it != params.end()) {
      std::string n = em.fresh(vname);
      tensor_to_proto(*it->second, n, g->add_initializer());
      em.bind(in, n);
      continue;
    }
    std::string given =
        arg_index < options.input_names.size() ? options.input_names[arg_index] : vname;
    ++arg_index;
    std::string n = em.fresh(given.empty() ? "input" : given);
    auto* info = g->add_input();
    info->set_name(n);
    if (in->type().kind == ir::TypeKind::Tuple || in->type().kind == ir::TypeKind::List ||
        in->type().kind == ir::TypeKind::Str || in->type().kind == ir::TypeKind::None) {
      throw Error("cannot export to ONNX: the input '" + vname + "' is a " + in->type().str(),
                  SourceRange(), "ONNX inputs are tensors; pass tensors, ints, floats or bools");
    }
    if (in->type().is_tensor() && !in->type().shape) {
      // ONNX's checker requires a graph input's rank; a parse without examples has none.
      throw Error("cannot export to ONNX: the rank of the input '" + vname + "' is not known",
                  SourceRange(),
                  "give --inputs IN.yaml: the first set's sizes become the file's input "
                  "shapes (--dynamic-axes NAME:DIM=LABEL leaves a dimension free)");
    }
    em.set_type(info, in->type(), true);
    if (auto dyn = options.dynamic_axes.find(given); dyn != options.dynamic_axes.end()) {
      auto* shape = info->mutable_type()->mutable_tensor_type()->mutable_shape();
      for (const auto& [dim, label] : dyn->second) {
        if (dim < 0 || dim >= shape->dim_size()) {
          throw Error("dynamic axes name dim " + std::to_string(dim) + " of the input '" + given +
                          "', which it does not have (rank " + std::to_string(shape->dim_size()) +
                          ")",
                      SourceRange(), "give --inputs so the input's rank is known, or fix the dim");
        }
        shape->mutable_dim(static_cast<int>(dim))->set_dim_param(label);
      }
    }
    em.bind(in, n);
  }
  em.emit_block(*graph.block());

  // Outputs: a returned tuple gives one ONNX output per item.
  std::vector<const ir::Value*> outs;
  for (const ir::Value* v : graph.outputs()) {
    if (v->node()->kind() == ir::kind::TupleConstruct) {
      for (const ir::Value* item : v->node()->inputs()) outs.push_back(item);
    } else {
      outs.push_back(v);
    }
  }
  for (size_t i = 0; i < outs.size(); ++i) {
    std::string given = i < options.output_names.size() ? options.output_names[i]
                        : outs.size() == 1              ? "output"
                                                        : "output" + std::to_string(i);
    if (outs[i]->type().kind == ir::TypeKind::Tuple || outs[i]->type().kind == ir::TypeKind::List ||
        outs[i]->type().kind == ir::TypeKind::None || outs[i]->type().kind == ir::TypeKind::Str) {
      throw Error("cannot export to ONNX: the program returns a " + outs[i]->type().str(),
                  SourceRange(), "ONNX outputs are tensors; return tensors, ints, floats or bools");
    }
    std::string n = em.fresh(given);
    em.add("Identity", {em.name(outs[i])}, {n});
    auto* info = g->add_output();
    info->set_name(n);
    em.set_type(info, outs[i]->type(), true);
    // The element type follows what was emitted (a tensor of unknown dtype is float32).
    info->mutable_type()->mutable_tensor_type()->set_elem_type(elem_type_of(em.dtype(outs[i])));
    // dynamic_axes may name an output's dims too (torch.onnx.export's 'output': {0: ...}).
    if (auto dyn = options.dynamic_axes.find(given); dyn != options.dynamic_axes.end()) {
      auto* tensor = info->mutable_type()->mutable_tensor_type();
      for (const auto& [dim, label] : dyn->second) {
        if (!tensor->has_shape() || dim < 0 || dim >= tensor->shape().dim_size()) {
          throw Error("dynamic axes name dim " + std::to_string(dim) + " of the output '" + given +
                          "', which it does not have" +
                          (tensor->has_shape()
                               ? " (rank " + std::to_string(tensor->shape().dim_size()) + ")"
                               : " (its rank is not known)"),
                      SourceRange(), "name a dim the output has");
        }
        tensor->mutable_shape()->mutable_dim(static_cast<int>(dim))->set_dim_param(label);
      }
    }
  }
  for (const auto& [name, _] : options.dynamic_axes) {
    bool found = false;
    for (const auto& in : g->input()) found = found || in.name() == name;
    for (const auto& out : g->output()) found = found || out.name() == name;
    if (!found) {
      throw Error("dynamic axes name '" + name +
                      "', which is neither an input nor an output of "
                      "the model",
                  SourceRange(), "name one of the model's inputs or outputs");
    }
  }
  check_model_strict(model);
  std::string bytes;
  model.SerializeToString(&bytes);
  return bytes;
}

}  // namespace d2s::onnx_io
