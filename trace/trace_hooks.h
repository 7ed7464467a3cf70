// The tracer's InterpreterHooks (internal to trace/): ops become nodes, Python
// decisions become constants plus guards, and everything else goes to the TraceLog.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir/ir.h"
#include "trace/interpreter.h"
#include "trace/trace_headers.h"
#include "trace/trace_log.h"
#include "trace/trace_values.h"

namespace d2s::trace_detail {

class TraceHooks final : public InterpreterHooks {
 public:
  TraceHooks(TraceBuilder& builder, TraceLog& log, bool guards, const ast::Module& module);

  void before_write(const OpDef& op, const ValueList& args, const SourceRange& range) override;
  IValue after_op(const OpDef& op, const ValueList& args, const ValueList& given, IValue result,
                  const SourceRange& range) override;
  IValue to_python(PyConversion kind, const IValue& value, IValue python_value,
                   const SourceRange& range, const std::string& text) override;
  void on_print(const ValueList& args, const std::string& text, const SourceRange& range) override;
  void on_if(const ast::If& stmt, bool taken) override;
  void on_loop(const ast::Stmt& stmt, int64_t trips) override;
  void on_call_enter(const ast::FunctionDef& fn, const std::string& name,
                     const SourceRange& call_range) override;
  void on_call_exit(const ast::FunctionDef& fn) override;

  // Appends `prim::Guard(value)[seen, expr, what]` at `range` (also used for the
  // input and shape guards).
  void guard(ir::Value* value, const IValue& seen, const std::string& what, const std::string& expr,
             const SourceRange& range);

 private:
  // Records the op as a node and returns what the program continues with.
  IValue record(const OpDef& op, const ValueList& args, const ValueList& given, IValue result,
                const SourceRange& range);
  // aten::size / aten::size.int / aten::numel: symbolic sizes instead of a node.
  IValue sizes(const OpDef& op, const ValueList& args, IValue result, const SourceRange& range);
  // Binds one output of a recorded node to the value the kernel produced.
  IValue bind_output(ir::Value* out, IValue value, Provenance from, const SourceRange& range);
  // An op turned symbolic numbers into something no symbol can stand for (a string):
  // each is baked there, and guarded.
  void bake_inputs(const ValueList& given, const SourceRange& range);
  // The node that computes, at run time, what a conversion of a tensor computed now.
  ir::Value* conversion_value(PyConversion kind, ir::Value* tensor, const IValue& python_value,
                              const SourceRange& range);
  // False when `v` is already guarded for this conversion with this value (`while t >
  // 0 and ...` tests the truth of t twice): a second guard would check nothing new.
  // (The value is compared too: a view's data can change under it by an in-place op.)
  bool first_guard(const ir::Value* v, PyConversion kind, const IValue& seen);

  TraceBuilder& builder_;
  TraceLog& log_;
  bool guards_;
  HeaderIndex headers_;
  int depth_ = 0;  // calls in progress
  struct Guarded {
    PyConversion kind;
    IValue seen;
  };
  std::unordered_map<const ir::Value*, std::vector<Guarded>> guarded_;
};

}  // namespace d2s::trace_detail
