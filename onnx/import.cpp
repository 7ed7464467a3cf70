// Importing an ONNX model into the d2s IR (import.h): the graph's inputs,
// initializers and outputs, If and Loop, and the per-node bookkeeping. What each ONNX
// op becomes is in op_import.cpp.
#include "onnx/import.h"

#include <onnx/checker.h>
#include <onnx/shape_inference/implementation.h>

#include <limits>

#include "convert/schema_match.h"
#include "core/base/error.h"
#include "core/ops/op_registry.h"
#include "onnx/import_context.h"
#include "onnx/tensor_proto.h"

namespace d2s::onnx_io {

ir::Value* Importer::op(const std::string& kind, const std::vector<ir::Value*>& inputs,
                        std::optional<DType> dtype) {
  return op_n(kind, inputs, 1, dtype)[0];
}

std::vector<ir::Value*> Importer::op_n(const std::string& kind,
                                       const std::vector<ir::Value*>& inputs, size_t outputs,
                                       std::optional<DType> dtype) {
  ir::Node* n = graph_.insert(kind, inputs, outputs, range_);
  for (ir::Value* o : n->outputs()) o->set_type(ir::Type::tensor(dtype));
  // The overload, as the parse route records it (`aten::mean.dim`), so that code written
  // from the graph (d2s code) calls the right one; left to the executor when the
  // argument types do not decide it.
  if (kind.rfind("aten::", 0) == 0 && !OpRegistry::builtin().overloads(kind).empty()) {
    std::vector<convert::ArgInfo> args;
    for (ir::Value* v : inputs) {
      convert::ArgInfo a{&v->type(), std::nullopt};
      if (v->node()->kind() == ir::kind::Constant) {
        if (const IValue* c = v->node()->attr("value")) a.constant = *c;
      }
      args.push_back(std::move(a));
    }
    try {
      n->set_overload(convert::match_op(kind, args, {}, range_).op->schema.overload);
    } catch (const Error&) {
    }
  }
  return {n->outputs().begin(), n->outputs().end()};
}

ir::Value* Importer::constant(const IValue& v) {
  return graph_.insert_constant(v, range_);
}

ir::Value* Importer::c_tensor(const Tensor& t) {
  ir::Value* v = constant(IValue(t));
  known_[v] = t;
  return v;
}

namespace {
const onnx::AttributeProto* find_attr(const onnx::NodeProto& n, const std::string& name) {
  for (const auto& a : n.attribute()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}
}  // namespace

bool Importer::has_attr(const std::string& name) const {
  return find_attr(*node_, name);
}

int64_t Importer::attr_int(const std::string& name, int64_t dflt) const {
  const auto* a = find_attr(*node_, name);
  return a ? a->i() : dflt;
}

float Importer::attr_float(const std::string& name, float dflt) const {
  const auto* a = find_attr(*node_, name);
  return a ? a->f() : dflt;
}

std::vector<int64_t> Importer::attr_ints(const std::string& name) const {
  const auto* a = find_attr(*node_, name);
  if (!a) return {};
  return {a->ints().begin(), a->ints().end()};
}

std::string Importer::attr_string(const std::string& name, const std::string& dflt) const {
  const auto* a = find_attr(*node_, name);
  return a ? a->s() : dflt;
}

DType Importer::dtype(const ir::Value* v) {
  const ir::Type& t = v->type();
  if (t.kind == ir::TypeKind::Int) return DType::Int64;
  if (t.kind == ir::TypeKind::Bool) return DType::Bool;
  return t.dtype.value_or(DType::Float32);
}

const Tensor* Importer::known(const ir::Value* v) const {
  auto it = known_.find(v);
  return it == known_.end() ? nullptr : &it->second;
}

std::vector<int64_t> Importer::need_ints(const ir::Value* v, const char* what) const {
  const Tensor* t = known(v);
  if (!t) {
    unsupported(std::string("its ") + what + " is computed at run time (d2s needs it known " +
                    "when importing: an initializer or a Constant)",
                "runtime " + std::string(what));
  }
  std::vector<int64_t> out;
  for (int64_t i = 0; i < t->numel(); ++i) {
    if (t->dtype() == DType::Int64) {
      // Exactly: a slice's open end is INT64_MAX, which a double cannot hold.
      out.push_back(t->data<int64_t>()[i]);
      continue;
    }
    const double d = t->value_at(i);
    if (!(d >= -9.2e18 && d <= 9.2e18)) {
      unsupported(
          std::string("its ") + what + " holds " + std::to_string(d) + ", which is not an int64",
          "non-integer " + std::string(what));
    }
    out.push_back(static_cast<int64_t>(d));
  }
  return out;
}

void Importer::unsupported(const std::string& what, const std::string& key) const {
  std::string node = node_->name().empty() ? "an unnamed node" : "node '" + node_->name() + "'";
  throw Unsupported(range_.path() + ":" + std::to_string(range_.line) + ": " + node + " (" +
                        node_->op_type() + "): " + what,
                    key);
}

void Importer::fail(const std::string& what) const {
  throw Error("ONNX node '" + node_->name() + "' (" + node_->op_type() + "): " + what, range_);
}

ir::Value* Importer::lookup(const std::string& name) const {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto found = it->find(name);
    if (found != it->end()) return found->second;
  }
  return nullptr;
}

void Importer::import_nodes(const onnx::GraphProto& g) {
  for (const auto& n : g.node()) import_node(n);
}

void Importer::import_node(const onnx::NodeProto& n) {
  node_ = &n;
  auto line = lines_.find(&n);
  range_ = SourceRange(file_, line == lines_.end() ? 1 : line->second, 1, 1);
  if (!n.domain().empty() && n.domain() != "ai.onnx") {
    unsupported("the op is in domain '" + n.domain() + "', not ONNX's own",
                "op " + n.domain() + "." + n.op_type());
  }
  std::vector<ir::Value*> ins;
  for (const auto& name : n.input()) {
    if (name.empty()) {
      ins.push_back(nullptr);
      continue;
    }
    ir::Value* v = lookup(name);
    if (!v) fail("its input '" + name + "' is not defined before it");
    ins.push_back(v);
  }
  std::vector<ir::Value*> outs;
  if (n.op_type() == "If") {
    import_if(ins);
    return;
  }
  if (n.op_type() == "Loop") {
    import_loop(ins);
    return;
  }
  const ImportFn* fn = find_import(n.op_type());
  if (!fn) unsupported("d2s has no counterpart for ONNX op " + n.op_type(), "op " + n.op_type());
  outs = (*fn)(*this, ins);
  for (int i = 0; i < n.output_size() && static_cast<size_t>(i) < outs.size(); ++i) {
    if (n.output(i).empty()) continue;
    if (!outs[static_cast<size_t>(i)]) {
      unsupported("its output " + std::to_string(i) + " is not supported",
                  "op " + n.op_type() + " extra output");
    }
    ir::Value* v = outs[static_cast<size_t>(i)];
    if (v->debug_name().empty()) v->set_debug_name(n.output(i));
    apply_inferred_type(v, n.output(i));
    define(n.output(i), v);
  }
  for (int i = static_cast<int>(outs.size()); i < n.output_size(); ++i) {
    if (!n.output(i).empty()) {
      unsupported("its output " + std::to_string(i) + " is not supported",
                  "op " + n.op_type() + " extra output");
    }
  }
}

namespace {
const onnx::GraphProto& graph_attr(const onnx::NodeProto& n, const std::string& name,
                                   const Importer& imp) {
  const auto* a = find_attr(n, name);
  if (!a || !a->has_g()) imp.fail("it has no '" + name + "' graph");
  return a->g();
}
}  // namespace

void Importer::import_subgraph_body(const onnx::GraphProto& g, ir::Block* block,
                                    const std::vector<ir::Value*>& block_inputs,
                                    size_t skip_outputs) {
  const onnx::NodeProto* saved = node_;
  const SourceRange saved_range = range_;
  ir::WithInsertPoint guard(graph_, block);
  push_scope();
  try {
    for (int i = 0; i < g.input_size(); ++i) {
      if (static_cast<size_t>(i) < block_inputs.size()) define(g.input(i).name(), block_inputs[i]);
    }
    for (const auto& init : g.initializer()) {
      // Initializers of a subgraph are constants of its block.
      define(init.name(), c_tensor(tensor_from_proto(init)));
    }
    import_nodes(g);
    node_ = saved;
    range_ = saved_range;
    for (int i = static_cast<int>(skip_outputs); i < g.output_size(); ++i) {
      ir::Value* v = lookup(g.output(i).name());
      if (!v) fail("its subgraph's output '" + g.output(i).name() + "' is not defined");
      block->register_output(v);
    }
  } catch (...) {
    pop_scope();
    throw;
  }
  pop_scope();
  node_ = saved;
  range_ = saved_range;
}

void Importer::import_if(const std::vector<ir::Value*>& ins) {
  const onnx::NodeProto& n = *node_;
  if (ins.empty() || !ins[0]) fail("it has no condition");
  ir::Node* node =
      graph_.insert(ir::kind::If, {ins[0]}, static_cast<size_t>(n.output_size()), range_);
  const onnx::GraphProto& then_g = graph_attr(n, "then_branch", *this);
  const onnx::GraphProto& else_g = graph_attr(n, "else_branch", *this);
  if (then_g.output_size() != n.output_size() || else_g.output_size() != n.output_size()) {
    fail("its branches do not yield one value per output");
  }
  ir::Block* b0 = node->add_block();
  ir::Block* b1 = node->add_block();
  import_subgraph_body(then_g, b0, {}, 0);
  import_subgraph_body(else_g, b1, {}, 0);
  for (int i = 0; i < n.output_size(); ++i) {
    ir::Value* o = node->output(static_cast<size_t>(i));
    o->set_type(ir::Type::tensor(dtype(b0->outputs()[static_cast<size_t>(i)])));
    o->set_debug_name(n.output(i));
    define(n.output(i), o);
  }
}

void Importer::import_loop(const std::vector<ir::Value*>& ins) {
  const onnx::NodeProto& n = *node_;
  const onnx::GraphProto& body = graph_attr(n, "body", *this);
  const size_t carried = ins.size() < 2 ? 0 : ins.size() - 2;
  if (static_cast<size_t>(body.output_size()) != carried + 1) {
    unsupported("the loop has scan outputs", "Loop scan outputs");
  }
  if (static_cast<size_t>(body.input_size()) != carried + 2) {
    fail("its body takes " + std::to_string(body.input_size()) + " inputs, not " +
         std::to_string(carried + 2));
  }
  // M and cond may be omitted: no bound, no condition.
  ir::Value* max_trip = ins.size() > 0 && ins[0] ? op("aten::Int", {ins[0]}, std::nullopt)
                                                 : c_int(std::numeric_limits<int64_t>::max());
  max_trip->set_type(ir::Type::of_int());
  ir::Value* cond = ins.size() > 1 && ins[1] ? ins[1] : c_bool(true);
  std::vector<ir::Value*> loop_ins = {max_trip, cond};
  for (size_t i = 2; i < ins.size(); ++i) {
    if (!ins[i]) fail("a loop-carried value is omitted");
    loop_ins.push_back(ins[i]);
  }
  ir::Node* node = graph_.insert(ir::kind::Loop, loop_ins, carried, range_);
  ir::Block* block = node->add_block();
  ir::Value* iter = block->add_input("iter");
  iter->set_type(ir::Type::of_int());
  std::vector<ir::Value*> body_ins;
  {
    // The body sees the iteration number as an int64 tensor and the condition it
    // was entered with (always true: the loop stops when it is false).
    ir::WithInsertPoint at(graph_, block);
    body_ins.push_back(op("aten::tensor", {iter}, DType::Int64));
    body_ins.back()->set_type(ir::Type::tensor(DType::Int64, std::vector<ir::Dim>{}));
    body_ins.push_back(c_tensor(Tensor::scalar(1, DType::Bool)));
  }
  for (size_t i = 0; i < carried; ++i) {
    ir::Value* v = block->add_input();
    v->set_type(ins[i + 2]->type());
    body_ins.push_back(v);
  }
  import_subgraph_body(body, block, body_ins, 0);
  for (size_t i = 0; i < carried; ++i) {
    ir::Value* o = node->output(i);
    o->set_type(ins[i + 2]->type());
    o->set_debug_name(n.output(static_cast<int>(i)));
    define(n.output(static_cast<int>(i)), o);
  }
}

namespace {

// The element type of a value info: a d2s dtype, or Unsupported.
DType value_dtype(const onnx::ValueInfoProto& info, const std::string& path) {
  if (!info.type().has_tensor_type()) {
    std::string kind = info.type().has_sequence_type()   ? "sequence"
                       : info.type().has_optional_type() ? "optional"
                       : info.type().has_map_type()      ? "map"
                                                         : "non-tensor";
    throw Unsupported(path + ": the graph's value '" + info.name() + "' has a " + kind +
                          " type; d2s imports tensors only",
                      "type " + kind);
  }
  std::optional<DType> d = dtype_of_elem_type(info.type().tensor_type().elem_type());
  if (!d) {
    throw Unsupported(path + ": the graph's value '" + info.name() + "' has element type " +
                          elem_type_name(info.type().tensor_type().elem_type()) +
                          ", which d2s does not have (float32, int64 and bool only)",
                      "dtype " + elem_type_name(info.type().tensor_type().elem_type()));
  }
  return *d;
}

ir::Type value_type(const onnx::ValueInfoProto& info, const std::string& path) {
  DType d = value_dtype(info, path);
  const auto& tt = info.type().tensor_type();
  if (!tt.has_shape()) return ir::Type::tensor(d);
  std::vector<ir::Dim> dims;
  for (const auto& dim : tt.shape().dim()) {
    if (dim.has_dim_value()) {
      dims.push_back(ir::Dim::known(dim.dim_value()));
    } else if (dim.has_dim_param() && !dim.dim_param().empty()) {
      dims.push_back(ir::Dim::symbolic(dim.dim_param()));
    } else {
      dims.push_back(ir::Dim{});
    }
  }
  return ir::Type::tensor(d, dims);
}

// One line per node, depth first: the text messages point into.
void list_nodes(const onnx::GraphProto& g, std::string& text,
                std::map<const onnx::NodeProto*, int>& lines, int& line) {
  std::vector<std::pair<const onnx::GraphProto*, int>> stack = {{&g, 0}};
  while (!stack.empty()) {
    auto& [graph, i] = stack.back();
    if (i >= graph->node_size()) {
      stack.pop_back();
      continue;
    }
    const onnx::NodeProto& n = graph->node(i++);
    lines[&n] = ++line;
    text += n.op_type() + " '" + n.name() + "'\n";
    for (auto it = n.attribute().rbegin(); it != n.attribute().rend(); ++it) {
      if (it->has_g()) stack.emplace_back(&it->g(), 0);
    }
  }
}

}  // namespace

void Importer::apply_inferred_type(ir::Value* v, const std::string& name) const {
  auto it = infos_.find(name);
  if (it == infos_.end() || v->node()->kind() == ir::kind::Param) return;
  if (!v->type().is_tensor() && v->type().kind != ir::TypeKind::Any) return;
  try {
    ir::Type t = value_type(it->second, "");
    // Only when it agrees with the mapping's dtype (a mapping may compute in float32).
    if (v->type().dtype && t.dtype && *v->type().dtype != *t.dtype) return;
    v->set_type(t);
  } catch (const Unsupported&) {
  }
}

namespace {
void collect_infos(const onnx::GraphProto& g, std::map<std::string, onnx::ValueInfoProto>& out) {
  std::vector<const onnx::GraphProto*> todo = {&g};
  while (!todo.empty()) {
    const onnx::GraphProto* cur = todo.back();
    todo.pop_back();
    for (const auto& vi : cur->value_info()) out[vi.name()] = vi;
    for (const auto& vi : cur->output()) out[vi.name()] = vi;
    for (const auto& n : cur->node()) {
      for (const auto& a : n.attribute()) {
        if (a.has_g()) todo.push_back(&a.g());
      }
    }
  }
}
}  // namespace

ImportedModel import_onnx(const onnx::ModelProto& model, const std::string& path,
                          const ImportOptions& options) {
  for (const auto& opset : model.opset_import()) {
    if ((opset.domain().empty() || opset.domain() == "ai.onnx") && opset.version() > 17) {
      throw Unsupported(path + ": the model uses opset " + std::to_string(opset.version()) +
                            "; d2s reads opsets up to 17",
                        "opset " + std::to_string(opset.version()));
    }
  }
  const onnx::GraphProto& g = model.graph();
  std::string text;
  std::map<const onnx::NodeProto*, int> lines;
  int line = 0;
  list_nodes(g, text, lines, line);
  auto file = std::make_shared<const SourceFile>(path, text.empty() ? "(no nodes)\n" : text);

  ImportedModel out;
  out.graph = std::make_unique<ir::Graph>();
  ir::Graph& graph = *out.graph;
  graph.route = "onnx";
  graph.entry = g.name();
  Importer imp(graph);
  imp.set_lines(std::move(lines), file);
  {
    // ONNX's own shape inference types the intermediate values (ranks and sizes some
    // mappings need); a model it cannot infer is imported without them.
    onnx::ModelProto inferred = model;
    // libonnx 1.12's shape inference can crash on a malformed model (fuzz_onnx_import
    // found one), so it only sees models that pass the checker; others are refused.
    try {
      onnx::checker::check_model(model);
    } catch (const std::exception& e) {
      throw Error("'" + path + "' is not a valid ONNX model: " + std::string(e.what()),
                  SourceRange(), "check it with onnx.checker.check_model");
    }
    try {
      onnx::ShapeInferenceOptions so{false, 0, true};
      onnx::shape_inference::InferShapes(inferred, onnx::OpSchemaRegistry::Instance(), so);
    } catch (const std::exception&) {
    }
    std::map<std::string, onnx::ValueInfoProto> infos;
    collect_infos(inferred.graph(), infos);
    imp.set_value_infos(std::move(infos));
  }
  imp.push_scope();

  std::map<std::string, const onnx::TensorProto*> inits;
  for (const auto& t : g.initializer()) inits[t.name()] = &t;
  // In IR < 4 models the initializers are listed among the inputs too.
  for (const auto& in : g.input()) {
    if (inits.count(in.name())) continue;
    // Names with a dot would read as parameters (run_graph.h): x.1 becomes x_1.
    std::string name = in.name();
    for (char& c : name) c = c == '.' ? '_' : c;
    ir::Type type = value_type(in, path);
    ir::Value* v = nullptr;
    if (options.scalar_inputs && type.shape && type.shape->empty()) {
      DType d = *type.dtype;
      ir::Type scalar = d == DType::Int64  ? ir::Type::of_int()
                        : d == DType::Bool ? ir::Type::of_bool()
                                           : ir::Type::of_float();
      ir::Value* number = graph.add_input(name, scalar);
      v = graph.insert("aten::tensor", {number}, 1, SourceRange(file, 1, 1, 1))->output();
      v->set_type(type);
    } else {
      v = graph.add_input(name, type);
    }
    out.input_names.push_back(name);
    imp.define(in.name(), v);
    if (auto k = options.known_inputs.find(in.name()); k != options.known_inputs.end()) {
      imp.set_known(v, k->second);
    }
  }
  for (const auto& t : g.initializer()) {
    Tensor value = tensor_from_proto(t);
    ir::Value* v = graph.add_input(t.name(), ir::Type::tensor_of(value.dtype(), value.shape()));
    imp.define(t.name(), v);
    imp.set_known(v, value);
    out.parameters.emplace_back(t.name(), value);
  }
  imp.import_nodes(g);
  for (const auto& o : g.output()) {
    value_dtype(o, path);
    ir::Value* v = imp.lookup(o.name());
    if (!v) {
      throw Error(path + ": the graph's output '" + o.name() + "' is not computed by any node");
    }
    graph.register_output(v);
  }
  return out;
}

}  // namespace d2s::onnx_io
