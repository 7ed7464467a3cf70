// trace_program: the graph's inputs and their guards, the traced run, its outputs,
// dead-code removal and verification. The per-op work is in trace_hooks.cpp.
#include "trace/tracer.h"

#include <algorithm>
#include <string>
#include <utility>

#include "core/base/error.h"
#include "core/ir/effects.h"
#include "core/ir/verify.h"
#include "core/ops/op_registry.h"
#include "trace/trace_hooks.h"
#include "trace/trace_values.h"

namespace d2s {

bool is_tensor_sequence(const IValue& v) {
  if ((!v.is_list() && !v.is_tuple()) || v.items().empty()) return false;
  for (const IValue& item : v.items()) {
    if (!item.is_tensor() || !item.to_tensor().defined()) return false;
  }
  return true;
}

namespace {

using trace_detail::SymbolicNumber;
using trace_detail::TraceBuilder;
using trace_detail::TraceHooks;

const IValue* find_input(const NamedInputs& inputs, const std::string& name) {
  auto it =
      std::find_if(inputs.begin(), inputs.end(), [&](const auto& kv) { return kv.first == name; });
  return it == inputs.end() ? nullptr : &it->second;
}

// A scalar input as the entry sees it (call_entry converts by annotation the same way).
IValue scalar_as_annotated(const IValue& v, const std::string& annotation) {
  if (annotation == "int" && (v.is_int() || v.is_bool())) return IValue(v.to_int());
  if (annotation == "float" && v.is_number()) return IValue(v.to_double());
  return v;
}

// A list (or tuple) of tensors, such as an LSTM's (h, c) state: one graph input,
// unpacked into its tensors, as torch.jit.trace takes it (`%hidden : Tensor[]`, then
// prim::ListUnpack), so the graph runs on other values. With guards on, the list's
// length and each tensor's rank are guarded as a tensor input's rank is.
void add_sequence_input(const EntryParam& p, const IValue& v, bool guards, TraceBuilder& builder,
                        TraceHooks& hooks) {
  ir::Graph& graph = builder.graph();
  const std::vector<IValue>& items = v.items();
  std::vector<ir::Type> types;
  for (const IValue& item : items) {
    types.push_back(ir::Type::tensor_of(item.to_tensor().dtype(), item.to_tensor().shape()));
  }
  ir::Value* in = graph.add_input(
      p.name, v.is_tuple() ? ir::Type::tuple(types) : ir::Type::list(ir::Type::tensor()));
  if (guards && v.is_list()) {
    ir::Node* len = builder.insert("aten::len", {in}, 1, p.range);
    len->output()->set_type(ir::Type::of_int());
    hooks.guard(len->output(), IValue(static_cast<int64_t>(items.size())), "length",
                "len(" + p.name + ")", p.range);
  }
  ir::Node* unpack = builder.insert(v.is_tuple() ? ir::kind::TupleUnpack : ir::kind::ListUnpack,
                                    {in}, items.size(), p.range);
  for (size_t i = 0; i < items.size(); ++i) {
    const Tensor& t = items[i].to_tensor();
    unpack->output(i)->set_type(types[i]);
    builder.bind_tensor(t, unpack->output(i));
    if (guards) {
      ir::Node* rank = builder.insert("aten::dim", {unpack->output(i)}, 1, p.range);
      rank->output()->set_type(ir::Type::of_int());
      hooks.guard(rank->output(), IValue(t.dim()), "rank", p.name + "[" + std::to_string(i) + "]",
                  p.range);
    }
  }
}

// The entry's inputs in parameter order: tensors as typed graph inputs with a rank
// guard; scalars, with guards on, as graph inputs with a value guard (the trace bakes
// them, so another value must fail rather than give the traced value's answer).
// Lists of tensors are inputs too (add_sequence_input); other kinds (None, strings,
// lists of numbers) are baked without a graph input.
//
// A tensor's sizes are not guarded here: a trace guards only what it baked. A size
// that flowed only into ops (`x.view(x.size(0), -1)`) stayed symbolic, so the graph
// runs on other sizes; one that Python code used (an if, range(), an index, len(),
// the length of a split's result) has a guard of its own where it was used. The rank
// is baked by every op that reads it (`x.dim()`, `x.T`, negative dims), as the parse
// route's types fix it too.
void add_entry_inputs(const EntryInfo& info, const NamedInputs& inputs, bool guards,
                      TraceBuilder& builder, TraceHooks& hooks) {
  ir::Graph& graph = builder.graph();
  for (const EntryParam& p : info.params) {
    const IValue* v = find_input(inputs, p.name);
    if (!v) continue;  // a default is used: a constant of the trace
    if (v->is_tensor() && v->to_tensor().defined()) {
      const Tensor& t = v->to_tensor();
      ir::Value* in = graph.add_input(p.name, ir::Type::tensor_of(t.dtype(), t.shape()));
      builder.bind_tensor(t, in);
      if (guards) {
        ir::Node* rank = builder.insert("aten::dim", {in}, 1, p.range);
        rank->output()->set_type(ir::Type::of_int());
        hooks.guard(rank->output(), IValue(t.dim()), "rank", p.name, p.range);
      }
    } else if (is_tensor_sequence(*v)) {
      add_sequence_input(p, *v, guards, builder, hooks);
    } else if (v->is_number() && guards) {
      IValue seen = scalar_as_annotated(*v, p.annotation);
      ir::Value* in = graph.add_input(p.name, ir::type_of(seen));
      hooks.guard(in, seen, "input", p.name, p.range);
    }
  }
}

// The graph value of what the entry returned (nesting is bounded by the interpreter's
// output check, so recursion here follows the value's nesting only).
ir::Value* output_value(TraceBuilder& builder, const IValue& v, const SourceRange& range) {
  if (SymbolicNumber* s = trace_detail::as_symbolic(v)) return builder.number_value(*s);
  if (v.is_tensor() && v.to_tensor().defined()) return builder.tensor_value(v.to_tensor(), range);
  if ((v.is_tuple() || v.is_list()) && trace_detail::has_graph_value(v)) {
    std::vector<ir::Value*> items;
    std::vector<ir::Type> types;
    for (const IValue& item : v.items()) {
      items.push_back(output_value(builder, item, range));
      types.push_back(items.back()->type());
    }
    if (v.is_tuple()) {
      ir::Node* n = builder.insert(ir::kind::TupleConstruct, items, 1, range);
      n->output()->set_type(ir::Type::tuple(std::move(types)));
      return n->output();
    }
    ir::Node* n = builder.insert(ir::kind::ListConstruct, items, 1, range);
    n->output()->set_type(trace_detail::traced_type(v));
    return n->output();
  }
  return builder.constant(trace_detail::concrete_value(v), range);
}

// One backward pass over the flat trace: dropping a node can only make earlier nodes
// dead, so last-to-first finds them all. Uses are removed newest first, which is where
// remove_use looks first.
void eliminate_dead_code(ir::Graph& graph) {
  ir::Block* top = graph.block();
  for (ir::Node* n = top->return_node()->prev(); n && n != top->param_node();) {
    ir::Node* prev = n->prev();
    if (ir::removable_when_unused(*n)) n->destroy();
    n = prev;
  }
}

}  // namespace

TraceResult trace_program(Program& program, const NamedInputs& inputs,
                          const TraceOptions& options) {
  RunOptions run = options.run;
  run.hooks = nullptr;
  program.prepare(run);
  const EntryInfo info = program.entry(run.entry);

  TraceResult result;
  result.graph = std::make_unique<ir::Graph>();
  ir::Graph& graph = *result.graph;
  graph.route = "trace";
  graph.entry = info.kind == EntryInfo::Kind::Class ? info.name + ".forward" : info.name;
  graph.source = program.file();

  TraceBuilder builder(graph, options.max_nodes);
  TraceHooks hooks(builder, result.log, options.guards, program.module());
  add_entry_inputs(info, inputs, options.guards, builder, hooks);
  // The module's parameters are inputs too, so the graph runs with other weights.
  for (const auto& [name, tensor] : program.parameters()) {
    builder.bind_tensor(tensor,
                        graph.add_input(name, ir::Type::tensor_of(tensor.dtype(), tensor.shape())));
  }

  run.hooks = &hooks;
  IValue out = program.call_entry(inputs, run);
  // As the parse route does (convert/lower.cpp) and the outputs file lists them: a
  // returned tuple gives one graph output per item, None gives none.
  if (out.is_tuple()) {
    for (const IValue& item : out.tuple_items()) {
      graph.register_output(output_value(builder, item, info.range));
    }
  } else if (!out.is_none()) {
    graph.register_output(output_value(builder, out, info.range));
  }

  // A script (<module>) returns nothing: without outputs every op would be dead, and
  // its ops are what its trace is for.
  if (options.eliminate_dead_code && info.kind != EntryInfo::Kind::Module) {
    eliminate_dead_code(graph);
  }
  ir::verify(graph);
  result.eager_output = trace_detail::concrete_value(out);
  return result;
}

}  // namespace d2s
