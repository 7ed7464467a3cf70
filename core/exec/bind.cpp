// Binding an aten node's inputs to a schema at run time.
//
// Graph nodes hold their arguments in schema order — keyword-only ones too (the
// `alpha` of aten::add), trailing defaults possibly left out — as the lowering and
// the tracer write them and as TorchScript graphs do. OpRegistry::bind takes call
// sites (positional, then keywords), so the executor binds by position itself, with
// the registry's one conversion per argument (fit_argument, core/ops/op_registry.h):
// bool → int for int, numbers → float for float, a single int or a tuple → list
// for int[], dtype names → codes for ScalarType.
#include <unordered_map>

#include "core/exec/plan.h"
#include "core/tensor/ivalue_dict.h"

namespace d2s::exec_detail {

bool fit_arg(const ArgSpec& spec, IValue& v) {
  return fit_argument(spec.type, spec.optional, v);
}

std::string bind_error(const OpSchema& schema, size_t i, const IValue& arg) {
  return "argument '" + schema.arguments[i].name + "' (position " + std::to_string(i + 1) +
         ") must be " + schema.arguments[i].type + ", not " + arg.type_name();
}

std::vector<ArgSpec> arg_specs(const OpSchema& schema) {
  std::vector<ArgSpec> specs;
  for (const Argument& a : schema.arguments) specs.push_back(ArgSpec{a.kind, a.optional});
  return specs;
}

bool bind_in_order(const OpSchema& schema, const std::vector<ArgSpec>& specs, ValueList& args,
                   std::string* why) {
  const size_t n = schema.arguments.size();
  if (args.size() > n && !schema.varargs) {
    if (why) {
      *why = "expected at most " + std::to_string(n) + " argument(s) but got " +
             std::to_string(args.size());
    }
    return false;
  }
  const size_t given = std::min(args.size(), n);
  for (size_t i = 0; i < given; ++i) {
    if (!fit_arg(specs[i], args[i])) {
      if (why) *why = bind_error(schema, i, args[i]);
      return false;
    }
  }
  if (given == n) return true;  // extra varargs, if any, stay after the declared ones
  for (size_t i = given; i < n; ++i) {
    if (!schema.arguments[i].default_value) {
      if (why) *why = "missing required argument '" + schema.arguments[i].name + "'";
      args.resize(given);
      return false;
    }
    args.push_back(*schema.arguments[i].default_value);
  }
  return true;
}

namespace {

// The op's direct entry, found by the OpDef's address in a map built once from the
// table (kernels::fast_kernels), or null.
const kernels::FastEntry* fast_entry(const OpDef& op) {
  static const std::unordered_map<const OpDef*, const kernels::FastEntry*> by_op = [] {
    std::unordered_map<const OpDef*, const kernels::FastEntry*> map;
    for (const kernels::FastEntry& e : kernels::fast_kernels()) {
      if (const OpDef* def = OpRegistry::builtin().find_qualified(e.op)) map.emplace(def, &e);
    }
    return map;
  }();
  const auto it = by_op.find(&op);
  return it == by_op.end() ? nullptr : it->second;
}

// Sets call.fast when the bound call fits op's direct entry: its first operand read
// from a slot (a constant one is folded before it runs), add/sub's alpha the constant 1.
void bind_fast(const OpDef& op, BoundCall& call) {
  const kernels::FastEntry* e = fast_entry(op);
  if (!e || call.from.size() < e->operands || call.from[0] == kFixedArg) return;
  if (e->alpha_arg >= 0) {
    const auto alpha = static_cast<size_t>(e->alpha_arg);
    if (alpha >= call.from.size() || call.from[alpha] != kFixedArg) return;
    const IValue& v = call.fixed[alpha];
    if (!v.is_int() || v.to_int() != 1) return;
  }
  call.fast = e->kernel;
  call.fast_operands = e->operands;
}

}  // namespace

BoundCall bind_call(ir::Symbol kind, const OpDef& op, const std::vector<ArgSpec>& specs,
                    const std::vector<uint32_t>& slots, const std::vector<const IValue*>& statics,
                    bool named) {
  const OpSchema& schema = op.schema;
  const size_t n = schema.arguments.size();
  const size_t given = slots.size();
  if (given > n && !schema.varargs) return {};
  if (given > UINT16_MAX) return {};
  BoundCall call;
  for (size_t i = 0; i < given; ++i) {
    if (statics[i]) {
      IValue v = *statics[i];
      if (i < n && !fit_arg(specs[i], v)) return {};
      call.from.push_back(kFixedArg);
      call.fixed.push_back(std::move(v));
    } else {
      call.from.push_back(slots[i]);
      call.fixed.emplace_back();
      if (i < n && specs[i].type != ArgType::Any) call.check.push_back(static_cast<uint16_t>(i));
    }
  }
  for (size_t i = given; i < n; ++i) {
    if (!schema.arguments[i].default_value) return {};
    call.from.push_back(kFixedArg);
    call.fixed.push_back(*schema.arguments[i].default_value);
  }
  call.op = &op;
  call.specs = &specs;
  call.named = named;
  call.mm = kind == ir::op::mm;
  call.small_matmul = (call.mm || kind == ir::op::matmul) && n == 2;
  bind_fast(op, call);
  return call;
}

}  // namespace d2s::exec_detail
