// Binding an aten node's inputs to a schema at run time.
//
// Graph nodes hold their arguments in schema order — keyword-only ones too (the
// `alpha` of aten::add), trailing defaults possibly left out — as the lowering and
// the tracer write them and as TorchScript graphs do. OpRegistry::bind takes call
// sites (positional, then keywords), so the executor binds by position itself,
// applying the same conversions as the registry (core/op_registry.cpp `convert`):
// bool → int for int, numbers → float for float, a single int or a tuple → list
// for int[], dtype names → codes for ScalarType.
#include "core/executor_plan.h"
#include "core/ivalue_dict.h"

namespace d2s::exec_detail {

namespace {

ArgType base_type(const std::string& t) {
  if (t == "Tensor") return ArgType::Tensor;
  if (t == "Scalar") return ArgType::Scalar;
  if (t == "int") return ArgType::Int;
  if (t == "float") return ArgType::Float;
  if (t == "bool") return ArgType::Bool;
  if (t == "str") return ArgType::Str;
  if (t == "Any") return ArgType::Any;
  if (t == "ScalarType") return ArgType::ScalarType;
  if (t == "int[]") return ArgType::IntList;
  if (t == "float[]") return ArgType::FloatList;
  if (t == "str[]") return ArgType::StrList;
  if (t == "Tensor[]") return ArgType::TensorList;
  if (t == "Tensor?[]") return ArgType::OptionalTensorList;
  if (t == "Any[]") return ArgType::AnyList;
  if (t == "Dict") return ArgType::Dict;
  return ArgType::Unknown;
}

}  // namespace

bool fit_arg(const ArgSpec& spec, IValue& v) {
  if (spec.optional && v.is_none()) return true;
  switch (spec.type) {
    case ArgType::Tensor:
      return v.is_tensor() || v.is_number();
    case ArgType::Scalar:
      return v.is_number();
    case ArgType::Int:
      if (v.is_bool()) v = IValue(static_cast<int64_t>(v.to_bool()));
      return v.is_int();
    case ArgType::Float:
      if (!v.is_number()) return false;
      if (!v.is_double()) v = IValue(v.to_double());
      return true;
    case ArgType::Bool:
      return v.is_bool();
    case ArgType::Str:
      return v.is_string();
    case ArgType::Any:
      return true;
    case ArgType::Dict:
      return as_graph_dict(v) != nullptr;
    case ArgType::ScalarType: {
      DType d;
      if (v.is_int()) return dtype_from_scalar_type(v.to_int(), &d);
      if (v.is_string() && parse_dtype(v.to_string(), &d)) {
        v = IValue(dtype_scalar_type(d));
        return true;
      }
      return false;
    }
    case ArgType::IntList: {
      if (v.is_int()) {
        v = IValue::int_list({v.to_int()});
        return true;
      }
      if (!v.is_list() && !v.is_tuple()) return false;
      for (const IValue& item : v.items()) {
        if (!item.is_int()) return false;
      }
      if (v.is_tuple()) v = IValue::list(v.items());
      return true;
    }
    case ArgType::FloatList: {
      if (!v.is_list() && !v.is_tuple()) return false;
      ValueList items;
      for (const IValue& item : v.items()) {
        if (!item.is_number()) return false;
        items.push_back(IValue(item.to_double()));
      }
      v = IValue::list(std::move(items));
      return true;
    }
    case ArgType::StrList:
      if (!v.is_list() && !v.is_tuple()) return false;
      for (const IValue& item : v.items()) {
        if (!item.is_string()) return false;
      }
      if (v.is_tuple()) v = IValue::list(v.items());
      return true;
    case ArgType::TensorList:
      if (!v.is_list() && !v.is_tuple()) return false;
      for (const IValue& item : v.items()) {
        if (!item.is_tensor()) return false;
      }
      if (v.is_tuple()) v = IValue::list(v.items());
      return true;
    case ArgType::OptionalTensorList:
      if (!v.is_list() && !v.is_tuple()) return false;
      for (const IValue& item : v.items()) {
        if (!item.is_tensor() && !item.is_none()) return false;
      }
      if (v.is_tuple()) v = IValue::list(v.items());
      return true;
    case ArgType::AnyList:
      return v.is_list() || v.is_tuple();
    case ArgType::Unknown:
      return false;
  }
  return false;
}

std::string bind_error(const OpSchema& schema, size_t i, const IValue& arg) {
  return "argument '" + schema.arguments[i].name + "' (position " + std::to_string(i + 1) +
         ") must be " + schema.arguments[i].type + ", not " + arg.type_name();
}

std::vector<ArgSpec> arg_specs(const OpSchema& schema) {
  std::vector<ArgSpec> specs;
  for (const Argument& a : schema.arguments) {
    std::string t = a.type;
    bool optional = !t.empty() && t.back() == '?';
    if (optional) t.pop_back();
    specs.push_back(ArgSpec{base_type(t), optional});
  }
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
  return call;
}

}  // namespace d2s::exec_detail
