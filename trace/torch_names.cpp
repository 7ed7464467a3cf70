// The names under torch, torch.nn, torch.nn.functional, math and typing: which are
// namespaces, constants, dtypes, classes, or functions (mapped to ops through
// op_for_function), the torch functions d2s implements itself, and the error for
// names it does not support.
#include <cmath>
#include <map>

#include "trace/functional_signatures.h"
#include "trace/interp.h"
#include "trace/native_value.h"
#include "trace/nn_attention.h"
#include "trace/nn_layers.h"
#include "trace/nn_recurrent.h"
#include "trace/py_ndarray.h"
#include "trace/py_typeinfo.h"

namespace d2s::interp {

namespace {

IValue obj(std::shared_ptr<Object> o) {
  return IValue(std::move(o));
}

const char* const kNnClasses[] = {"Linear",     "ReLU",       "Tanh",    "Sigmoid",
                                  "GELU",       "LayerNorm",  "Dropout", "Sequential",
                                  "ModuleList", "ModuleDict", "Identity"};

// Callables d2s handles itself (not through op_for_function).
const char* const kOwnFunctions[] = {"torch.range",
                                     "torch.manual_seed",
                                     "torch.nn.Parameter",
                                     "torch.is_tensor",
                                     "torch.jit.script",
                                     "torch.compile",
                                     "torch.nn.Module",
                                     "torch.Tensor",
                                     "torch.jit.annotate",
                                     "torch.onnx.export",
                                     "torch.from_numpy",
                                     "torch.as_tensor",
                                     "torch.asarray",
                                     "torch.finfo",
                                     "torch.iinfo",
                                     "torch.device",
                                     "torch.cuda.is_available",
                                     "torch.cuda.device_count"};

// The legacy typed constructors and their dtypes (torch.FloatTensor(3, 4),
// torch.LongTensor([1, 2])); torch.Tensor is FloatTensor.
const std::pair<const char*, DType> kLegacyConstructors[] = {{"torch.Tensor", DType::Float32},
                                                             {"torch.FloatTensor", DType::Float32},
                                                             {"torch.LongTensor", DType::Int64},
                                                             {"torch.BoolTensor", DType::Bool}};
const char* const kUnsupportedLegacy[] = {"torch.DoubleTensor", "torch.IntTensor",
                                          "torch.HalfTensor",   "torch.ByteTensor",
                                          "torch.ShortTensor",  "torch.CharTensor"};

const DType* legacy_constructor_dtype(const std::string& qualname) {
  for (const auto& [name, dtype] : kLegacyConstructors) {
    if (qualname == name) return &dtype;
  }
  return nullptr;
}

// math functions on Python numbers, used when the registry maps no op to them.
const std::map<std::string, double (*)(double)>& math_functions() {
  static const std::map<std::string, double (*)(double)> table = {
      {"sqrt", [](double x) { return std::sqrt(x); }},
      {"exp", [](double x) { return std::exp(x); }},
      {"log", [](double x) { return std::log(x); }},
      {"log2", [](double x) { return std::log2(x); }},
      {"log10", [](double x) { return std::log10(x); }},
      {"cos", [](double x) { return std::cos(x); }},
      {"sin", [](double x) { return std::sin(x); }},
      {"tan", [](double x) { return std::tan(x); }},
      {"tanh", [](double x) { return std::tanh(x); }},
      {"fabs", [](double x) { return std::fabs(x); }},
      {"floor", [](double x) { return std::floor(x); }},
      {"ceil", [](double x) { return std::ceil(x); }},
      {"isnan", [](double x) { return std::isnan(x) ? 1.0 : 0.0; }},
      {"isinf", [](double x) { return std::isinf(x) ? 1.0 : 0.0; }},
      {"isfinite", [](double x) { return std::isfinite(x) ? 1.0 : 0.0; }},
  };
  return table;
}

bool is_nn_class(const std::string& qualname) {
  for (const char* c : kNnClasses) {
    if (qualname == std::string("torch.nn.") + c) return true;
  }
  return qualname.rfind("torch.nn.", 0) == 0 &&
         (is_layer_class(qualname.substr(9)) || is_recurrent_class(qualname.substr(9)) ||
          is_attention_class(qualname.substr(9)));
}

}  // namespace

IValue Interpreter::resolve_qualified(const std::string& qualname, const std::string& written,
                                      const SourceRange& range) {
  if (qualname == "torch.nn" || qualname == "torch.nn.functional" || qualname == "torch.jit" ||
      qualname == "torch.nn.init" || qualname == "torch.onnx" || qualname == "torch.cuda" ||
      is_training_namespace(qualname)) {
    return obj(std::make_shared<NamespaceValue>(qualname));
  }
  // TorchScript's eager-mode spellings : ScriptModule is an
  // nn.Module when run eagerly, as PyTorch runs it.
  if (qualname == "torch.jit.ScriptModule") {
    return resolve_qualified("torch.nn.Module", written, range);
  }
  static const std::map<std::string, double> kConstants = {
      {"math.pi", M_PI},      {"math.e", M_E},         {"math.tau", 2 * M_PI},
      {"math.inf", INFINITY}, {"math.nan", NAN},       {"torch.pi", M_PI},
      {"torch.e", M_E},       {"torch.inf", INFINITY}, {"torch.nan", NAN}};
  if (auto it = kConstants.find(qualname); it != kConstants.end()) return IValue(it->second);
  if (qualname.rfind("torch.", 0) == 0) {
    DType d;
    const std::string tail = qualname.substr(6);
    if ((tail == "float32" || tail == "float" || tail == "int64" || tail == "long" ||
         tail == "bool") &&
        parse_dtype(tail, &d)) {
      return make_dtype(d);
    }
    static const char* const kOtherDtypes[] = {
        "float64", "double", "float16", "half",  "bfloat16",  "int32",     "int",
        "int16",   "short",  "int8",    "uint8", "complex64", "complex128"};
    for (const char* o : kOtherDtypes) {
      if (tail == o) {
        fail(qualname + " is not supported by d2s", range,
             "d2s tensors are float32, int64 or bool");
      }
    }
  }
  if (qualname.rfind("typing.", 0) == 0 || is_nn_class(qualname) || is_dataclass_name(qualname) ||
      is_copy_name(qualname)) {
    return obj(std::make_shared<BuiltinValue>(qualname));
  }
  for (const char* f : kOwnFunctions) {
    if (qualname == f) return obj(std::make_shared<BuiltinValue>(qualname));
  }
  if (legacy_constructor_dtype(qualname)) return obj(std::make_shared<BuiltinValue>(qualname));
  for (const char* f : kUnsupportedLegacy) {
    if (qualname == f) {
      fail(qualname + " is not supported by d2s", range,
           "d2s tensors are float32, int64 or bool: use torch.FloatTensor, torch.LongTensor or "
           "torch.BoolTensor");
    }
  }
  if (qualname == "torch.nn.functional.embedding" ||    // nn_rnn_modules.cpp
      qualname == "torch.nn.functional.interpolate" ||  // nn_resize_modules.cpp
      qualname == "torch.nn.functional.upsample") {
    return obj(std::make_shared<BuiltinValue>(qualname));
  }
  if (op_for_function(qualname) || is_training_name(qualname) || is_init_name(qualname)) {
    return obj(std::make_shared<BuiltinValue>(qualname));
  }
  if (qualname.rfind("math.", 0) == 0 && math_functions().count(qualname.substr(5))) {
    return obj(std::make_shared<BuiltinValue>(qualname));
  }

  // Not supported: suggest names of the same namespace, spelled as the program did.
  const size_t dot = qualname.rfind('.');
  const std::string ns = qualname.substr(0, dot);
  const std::string leaf = qualname.substr(dot + 1);
  std::vector<std::string> candidates;
  for (const std::string& base : registry_.base_names()) {
    size_t colons = base.find("::");
    std::string name = colons == std::string::npos ? base : base.substr(colons + 2);
    if (op_for_function(ns + "." + name)) candidates.push_back(name);
  }
  for (const char* f : kOwnFunctions) {
    std::string s = f;
    if (s.rfind(ns + ".", 0) == 0 && s.find('.', ns.size() + 1) == std::string::npos) {
      candidates.push_back(s.substr(ns.size() + 1));
    }
  }
  if (ns == "torch.nn") {
    for (const char* c : kNnClasses) candidates.push_back(c);
    for (const std::string& c : layer_class_names()) candidates.push_back(c);
    for (const std::string& c : recurrent_class_names()) candidates.push_back(c);
    for (const std::string& c : attention_class_names()) candidates.push_back(c);
  }
  if (ns == "math") {
    for (const auto& [name, f] : math_functions()) candidates.push_back(name);
  }
  if (ns == "torch.nn.init") {
    for (const std::string& f : init_function_names()) candidates.push_back(f);
  }
  std::string prefix = written.empty() ? ns : written.substr(0, written.rfind('.'));
  std::string shown =
      written.empty() || written == qualname ? qualname : written + " (" + qualname + ")";
  std::string hint;
  std::string near = closest_name(leaf, candidates);
  if (!near.empty()) {
    hint = "did you mean " + prefix + "." + near + "?";
  } else {
    std::vector<std::string> nearby = nearest_names(leaf, candidates, 4);
    for (size_t i = 0; i < nearby.size(); ++i) {
      hint += (i ? ", " : "supported names nearby: ") + prefix + "." + nearby[i];
    }
    if (hint.empty())
      hint = "docs/language.md, \"Operators\", says which groups of operators d2s supports";
  }
  fail(shown + " is not supported by d2s", range, hint);
}

IValue Interpreter::call_torch(const BuiltinValue& fn, ValueList args, Kwargs kwargs,
                               const SourceRange& range, const ast::Call* site) {
  const std::string& q = fn.qualname;
  if (q == "torch.range") return torch_range(std::move(args), std::move(kwargs), range);
  if (std::optional<IValue> t = call_torch_on_numpy(*this, q, args, kwargs, range)) return *t;
  if (fn.plain_op) return call_plain_op(*fn.plain_op, std::move(args), std::move(kwargs), range);
  if (q.rfind("torch.", 0) != 0 && stdlib_value(q)) {
    return call_stdlib_name(q, std::move(args), std::move(kwargs), range);
  }
  if (q == "torch.manual_seed") {
    ValueList a = bind_args(q, {{"seed", std::nullopt}}, std::move(args), std::move(kwargs), range);
    generator_ = Generator(static_cast<uint64_t>(to_index(a[0], PyConversion::Scalar, range, "")));
    return IValue();
  }
  if (q == "torch.nn.Parameter") {
    ValueList a = bind_args("Parameter", {{"data", std::nullopt}, {"requires_grad", IValue(true)}},
                            std::move(args), std::move(kwargs), range);
    if (!a[0].is_tensor()) {
      fail("TypeError: nn.Parameter() expects a tensor, not '" + py_type_name(a[0]) + "'",
           site && !site->args.empty() ? site->args[0]->range : range);
    }
    return make_parameter(a[0].to_tensor(), truthy(a[1], range), range);
  }
  if (is_copy_name(q)) return call_copy_name(q, std::move(args), std::move(kwargs), range);
  if (is_dataclass_name(q))
    return call_dataclass_name(q, std::move(args), std::move(kwargs), range);
  if (q == "torch.jit.annotate" || q == "typing.cast") {
    // Eager PyTorch returns the value; the type is for the TorchScript compiler (or,
    // for typing.cast, for a type checker).
    ValueList a = bind_args(q,
                            {{q == "typing.cast" ? "typ" : "the_type", std::nullopt},
                             {q == "typing.cast" ? "val" : "the_value", std::nullopt}},
                            std::move(args), std::move(kwargs), range);
    return a[1];
  }
  if (q == "torch.is_tensor") {
    ValueList a = bind_args(q, {{"obj", std::nullopt}}, std::move(args), std::move(kwargs), range);
    return IValue(a[0].is_tensor());
  }
  if (q == "torch.jit.script" || q == "torch.compile") {
    // Used as a function rather than a decorator: the identity, as for decorators.
    if (args.empty()) fail("TypeError: " + q + "() needs the function to compile", range);
    return compile_callable(*this, args[0], range);
  }
  if (q == "torch.onnx.export") {
    return onnx_export_call(*this, export_hook_, std::move(args), std::move(kwargs), range, site);
  }
  if (is_init_name(q)) return call_init_name(*this, q, std::move(args), std::move(kwargs), range);
  if (is_training_name(q)) {
    return call_training_name(*this, q, std::move(args), std::move(kwargs), range);
  }
  if (is_nn_class(q)) return construct_nn(q, std::move(args), std::move(kwargs), range);
  if (q == "torch.nn.Transformer.generate_square_subsequent_mask") {
    return generate_square_subsequent_mask(*this, std::move(args), std::move(kwargs), range);
  }
  if (q == "torch.nn.Embedding.from_pretrained") {
    return embedding_from_pretrained(*this, std::move(args), std::move(kwargs), range);
  }
  if (q == "torch.nn.functional.interpolate" || q == "torch.nn.functional.upsample") {
    return functional_interpolate(*this, q.substr(q.rfind('.') + 1), std::move(args),
                                  std::move(kwargs), range);
  }
  if (q == "torch.nn.functional.embedding") {
    return functional_embedding(*this, std::move(args), std::move(kwargs), range);
  }
  if (q == "torch.nn.Module") {
    fail("nn.Module() is not built directly", range, "derive a class from nn.Module");
  }
  if (q.rfind("math.", 0) == 0 && !op_for_function(q)) {
    auto it = math_functions().find(q.substr(5));
    if (it != math_functions().end()) {
      ValueList a = bind_args(q, {{"x", std::nullopt}}, std::move(args), std::move(kwargs), range);
      std::optional<IValue> x = to_number(a[0], PyConversion::Scalar, range);
      if (!x) fail("TypeError: must be real number, not " + py_type_name(a[0]), range);
      const std::string name = it->first;
      const double v = x->to_double();
      if ((name == "sqrt" && v < 0) ||
          ((name == "log" || name == "log2" || name == "log10") && v <= 0)) {
        fail("ValueError: math domain error", range);
      }
      double r = it->second(v);
      if (name == "floor" || name == "ceil") {
        if (!std::isfinite(r))
          fail("OverflowError: cannot convert float infinity to integer", range);
        return IValue(static_cast<int64_t>(r));
      }
      if (name == "isnan" || name == "isinf" || name == "isfinite") return IValue(r != 0);
      return IValue(r);
    }
  }
  if (q == "torch.nonzero") return call_nonzero(std::move(args), std::move(kwargs), range);
  // d2s runs on the CPU, as a machine without CUDA: `torch.device("cuda" if
  // torch.cuda.is_available() else "cpu")` is "cpu". A device is its string, as
  // `x.device` is (print(device) shows "cpu", as PyTorch prints it).
  if (q == "torch.cuda.is_available" || q == "torch.cuda.device_count") {
    bind_args(q.substr(11), {}, std::move(args), std::move(kwargs), range);
    return q == "torch.cuda.is_available" ? IValue(false) : IValue(int64_t{0});
  }
  if (q == "torch.device") {
    ValueList a = bind_args("device", {{"type", std::nullopt}, {"index", IValue()}},
                            std::move(args), std::move(kwargs), range);
    if (!a[0].is_string()) {
      fail("TypeError: device() received an invalid combination of arguments - got (" +
               py_type_name(a[0]) + ")",
           range, "give the device as a string: torch.device(\"cpu\")");
    }
    std::string name = a[0].to_string();
    if (!a[1].is_none()) name += ":" + std::to_string(a[1].to_int());
    return IValue(name);
  }
  if (q == "torch.finfo" || q == "torch.iinfo") {
    const bool floating = q == "torch.finfo";
    const std::string fname = q.substr(6);
    // torch.finfo() is the default dtype's (float32); iinfo needs a dtype (PyTorch's
    // C++ argument parser words the error).
    if (!floating && args.empty() && kwargs.empty()) {
      fail("TypeError: iinfo() missing 1 required positional arguments: \"type\"", range);
    }
    ValueList a =
        bind_args(fname, {{"type", floating ? std::optional<IValue>(IValue()) : std::nullopt}},
                  std::move(args), std::move(kwargs), range);
    DType d = DType::Float32;
    if (auto* dt = as_obj<DTypeValue>(a[0])) {
      d = dt->dtype;
    } else if (!a[0].is_none()) {
      fail("TypeError: " + fname + "(): argument 'type' (position 1) must be torch.dtype, not " +
               py_type_name(a[0]),
           range);
    }
    TypeInfo info = type_info(floating, d);
    if (!info.error.empty()) fail(info.error, range, kTypeInfoHint);
    return obj(std::make_shared<TypeInfoValue>(std::move(info)));
  }
  if (const FunctionalSignature* sig = functional_signature(q)) {
    ValueList a = bind_args(q.substr(q.rfind('.') + 1), sig->params, std::move(args),
                            std::move(kwargs), range);
    if (sig->none_means_default >= 0) {
      IValue& v = a[static_cast<size_t>(sig->none_means_default)];
      if (v.is_none()) v = *sig->params[static_cast<size_t>(sig->none_means_default)].default_value;
    }
    const bool flag = sig->flag >= 0 && truthy(a[static_cast<size_t>(sig->flag)], range);
    ValueList op_args;
    for (size_t i = 0; i < sig->op_args.size(); ++i) {
      const int p = sig->op_args[i];
      op_args.push_back(p >= 0 ? a[static_cast<size_t>(p)] : sig->constants[i]);
    }
    return call_op(flag ? sig->flag_op : sig->op, std::move(op_args), {}, range);
  }
  if (std::optional<std::string> op = op_for_function(q)) {
    fn.plain_op = *op;
    return call_plain_op(*op, std::move(args), std::move(kwargs), range);
  }
  if (const DType* dtype = legacy_constructor_dtype(q)) {
    return legacy_constructor(q, *dtype, std::move(args), std::move(kwargs), range);
  }
  fail("TypeError: d2s cannot call " + q + "()", range);
}

// A torch function that is its registry op (op_for_function), called.
IValue Interpreter::call_plain_op(const std::string& op, ValueList args, Kwargs kwargs,
                                  const SourceRange& range) {
  if (op == "aten::einsum" && args.size() >= 2 && args[1].is_tensor()) {
    // torch.einsum(eq, a, b): the operands as the one Tensor[] argument.
    ValueList operands(args.begin() + 1, args.end());
    args.resize(1);
    args.push_back(IValue::list(std::move(operands)));
  }
  return call_op(op, std::move(args), std::move(kwargs), range);
}

// torch.FloatTensor(2, 3) / torch.FloatTensor(torch.Size([2, 3])): a tensor of that shape;
// torch.FloatTensor([1, 2]) or ((1, 2)): one of those values. PyTorch leaves a sized tensor's
// memory uninitialised and models fill it (reset_parameters); d2s's is zeros, the same on every
// run.
IValue Interpreter::legacy_constructor(const std::string& q, DType dtype, ValueList args,
                                       Kwargs kwargs, const SourceRange& range) {
  if (!kwargs.empty()) {
    fail("TypeError: " + q + "() got an unexpected keyword argument '" + kwargs.front().first + "'",
         range, "give the sizes or the data as positional arguments");
  }
  Kwargs dtype_kw = {{"dtype", make_dtype(dtype)}};
  // A list or tuple is data; a torch.Size is a shape, as PyTorch reads them.
  if (args.size() == 1 && (args[0].is_list() || args[0].is_tuple())) {
    return call_op("aten::tensor", {args[0]}, std::move(dtype_kw), range);
  }
  if (args.size() == 1) {
    if (const auto* size = as_obj<SizeValue>(args[0])) {
      ValueList sizes = size->items;  // a copy first: args[0] owns the torch.Size
      args = std::move(sizes);
    }
  }
  std::vector<int64_t> sizes;
  for (const IValue& v : args) {
    if (!v.is_int()) {
      fail("TypeError: " + q + "() takes sizes (ints) or one list of data, not " + py_type_name(v),
           range, "give each size as an int, or one list or tuple of the values");
    }
    sizes.push_back(v.to_int());
  }
  for (int64_t size : sizes) {
    if (size < 0) {
      fail("RuntimeError: Trying to create tensor with negative dimension " + std::to_string(size) +
               ": " + py_repr(IValue::int_list(sizes)),
           range, "each size given to " + q + "() must be 0 or more");
    }
  }
  if (sizes.empty()) sizes.push_back(0);  // torch.Tensor() is an empty 1-D tensor
  return call_op("aten::empty", {IValue::int_list(std::move(sizes))}, std::move(dtype_kw), range);
}

IValue Interpreter::call_nonzero(ValueList args, Kwargs kwargs, const SourceRange& range) {
  bool as_tuple = false;
  for (auto it = kwargs.begin(); it != kwargs.end(); ++it) {
    if (it->first != "as_tuple") continue;
    as_tuple = truthy(it->second, range);
    kwargs.erase(it);
    break;
  }
  return call_op(as_tuple ? "aten::nonzero_numpy" : "aten::nonzero", std::move(args),
                 std::move(kwargs), range);
}

IValue Interpreter::torch_range(ValueList args, Kwargs kwargs, const SourceRange& range) {
  // PyTorch's deprecated, inclusive torch.range(start, end, step=1).
  const std::string hint =
      "torch.range is deprecated; use range(...) in a for loop, or torch.arange(start, end) "
      "(end excluded)";
  ValueList a;
  Kwargs extra;
  for (auto& kw : kwargs) {
    if (kw.first == "dtype") extra.push_back(kw);
  }
  std::erase_if(kwargs, [](const auto& kw) { return kw.first == "dtype"; });
  try {
    a = bind_args("range",
                  {{"start", std::nullopt}, {"end", std::nullopt}, {"step", IValue(int64_t{1})}},
                  std::move(args), std::move(kwargs), range);
  } catch (const Error& e) {
    throw Error(e.message(), e.range(), hint);
  }
  double v[3];
  for (int i = 0; i < 3; ++i) {
    std::optional<IValue> n = to_number(a[i], PyConversion::Scalar, range);
    if (!n)
      fail("TypeError: range(): arguments must be numbers, not " + py_type_name(a[i]), range, hint);
    v[i] = n->to_double();
  }
  const double start = v[0], end = v[1], step = v[2];
  if (step == 0) fail("RuntimeError: step must be nonzero", range, hint);
  if ((step > 0 && end < start) || (step < 0 && end > start)) {
    fail("RuntimeError: upper bound and larger bound inconsistent with step sign", range, hint);
  }
  const int64_t n = static_cast<int64_t>((end - start) / step) + 1;
  // arange excludes its end: stop half a step past the last value torch.range includes.
  if (extra.empty()) extra.emplace_back("dtype", make_dtype(DType::Float32));
  return call_op(
      "aten::arange",
      {IValue(start), IValue(start + (static_cast<double>(n) - 0.5) * step), IValue(step)},
      std::move(extra), range);
}

}  // namespace d2s::interp
