#include "convert/compile.h"

#include "convert/lower.h"
#include "core/base/error.h"
#include "core/exec/executor.h"
#include "core/ir/ir.h"
#include "trace/py_objects.h"

namespace d2s::convert {

namespace {

size_t count_nodes(const ir::Block& top) {
  // Iterative over nested blocks (If arms, Loop bodies).
  size_t n = 0;
  std::vector<const ir::Block*> todo{&top};
  while (!todo.empty()) {
    const ir::Block* b = todo.back();
    todo.pop_back();
    for (const ir::Node* node : b->nodes()) {
      ++n;
      for (const ir::Block* inner : node->blocks()) todo.push_back(inner);
    }
  }
  return n;
}

class CompiledGraph : public CompiledCall {
 public:
  CompiledGraph(LoweredGraph lowered, bool training)
      : lowered_(std::move(lowered)), training_(training) {}

  IValue run(const ValueList& args, Generator& generator, std::ostream* out) override {
    ExecOptions opts;
    opts.generator = &generator;
    opts.training = training_;
    opts.out = out;
    if (!executor_) executor_ = std::make_unique<Executor>(*lowered_.graph, opts);
    ValueList inputs = args;
    // The live parameters, not copies: the optimizer updates them between calls and
    // backward() accumulates into their .grad.
    for (const auto& [name, t] : lowered_.parameters) inputs.push_back(IValue(t));
    ValueList outs = executor_->run(inputs);
    if (outs.empty()) return IValue();
    if (outs.size() == 1) return outs[0];
    return IValue::tuple(std::move(outs));
  }

 private:
  LoweredGraph lowered_;
  bool training_;
  std::unique_ptr<Executor> executor_;
};

}  // namespace

std::unique_ptr<CompiledCall> ParseRouteCompiler::compile(const CompileRequest& request,
                                                          std::string* why_not) {
  CompileRecord rec;
  rec.name = request.name;
  rec.site = request.site;
  rec.training = request.training;
  LiveFunction f;
  f.module = request.module;
  f.file = request.file;
  f.function = request.function;
  f.name = request.name;
  f.self = request.self;
  f.modules = request.modules;
  f.training = request.training;
  for (const IValue& a : request.args) {
    f.arg_shapes.push_back(a.to_tensor().shape());
    f.arg_dtypes.push_back(a.to_tensor().dtype());
  }
  try {
    LoweredGraph lowered = lower_live_function(f);
    rec.lowered = true;
    rec.nodes = count_nodes(*lowered.graph->block());
    rec.inputs = lowered.graph->inputs().size();
    records_.push_back(rec);
    return std::make_unique<CompiledGraph>(std::move(lowered), request.training);
  } catch (const Error& e) {
    rec.reason = e.range().known() ? e.range().path() + ":" + std::to_string(e.range().line) + ":" +
                                         std::to_string(e.range().col) + ": " + e.message()
                                   : e.message();
    if (!e.hint().empty()) rec.reason += " (" + e.hint() + ")";
    *why_not = rec.reason;
    records_.push_back(rec);
    return nullptr;
  }
}

void ParseRouteCompiler::explain(std::ostream& os) const {
  os << "compiled functions (torch.compile / torch.jit.script): " << records_.size() << "\n";
  for (const CompileRecord& r : records_) {
    os << "  " << r.name << " (" << r.site.path() << ":" << r.site.line << "): ";
    if (r.lowered) {
      os << "lowered by the parse route, " << r.nodes << " nodes, " << r.inputs
         << " inputs, training=" << (r.training ? "True" : "False")
         << "; later calls run the graph\n";
    } else {
      os << "fell back to eager: " << r.reason << "\n";
    }
  }
}

}  // namespace d2s::convert
