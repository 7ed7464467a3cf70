// numpy arrays at construction time (py_ndarray.h): numpy's array constructors, the
// array's methods and attributes, and the torch functions that turn one into a tensor.
// d2s tensors are float32, int64 or bool, so a float64 array (numpy's default) becomes
// a tensor only with a float32 dtype given (astype, dtype=, torch.FloatTensor); where
// PyTorch would make a float64 tensor, d2s says so.
#include "trace/py_ndarray.h"

#include <cmath>

namespace d2s::interp {

namespace {

// numpy's limit on dimensions; also bounds the recursion over nested lists.
constexpr size_t kMaxNpDims = 32;

IValue obj(std::shared_ptr<Object> o) {
  return IValue(std::move(o));
}

const char* np_dtype_name(NpDType d) {
  switch (d) {
    case NpDType::Float64:
      return "float64";
    case NpDType::Float32:
      return "float32";
    case NpDType::Int64:
      return "int64";
    case NpDType::Bool:
      return "bool";
  }
  return "float64";
}

// A value stored in an array of dtype `d`, as numpy casts it.
double cast_to(NpDType d, double v) {
  switch (d) {
    case NpDType::Float32:
      return static_cast<double>(static_cast<float>(v));
    case NpDType::Int64:
      return std::isfinite(v) ? std::trunc(v) : v;
    case NpDType::Bool:
      return v != 0 ? 1.0 : 0.0;
    case NpDType::Float64:
      return v;
  }
  return v;
}

IValue make_array(NpDType d, Shape shape, std::vector<double> data) {
  for (double& v : data) v = cast_to(d, v);
  return obj(std::make_shared<NdArrayValue>(d, std::move(shape), std::move(data)));
}

// A numpy dtype argument: np.float32 / np.float64 / np.int64, Python's float / int /
// bool, or their names as strings; nullopt for None.
std::optional<NpDType> np_dtype_arg(Interpreter& in, const IValue& v, const SourceRange& range) {
  if (v.is_none()) return std::nullopt;
  std::string name;
  if (auto* b = as_obj<BuiltinValue>(v)) name = b->qualname;
  if (v.is_string()) name = v.to_string();
  if (name.rfind("numpy.", 0) == 0) name = name.substr(6);
  if (name == "float64" || name == "float" || name == "double") return NpDType::Float64;
  if (name == "float32" || name == "single") return NpDType::Float32;
  if (name == "int64" || name == "int" || name == "long") return NpDType::Int64;
  if (name == "bool" || name == "bool_") return NpDType::Bool;
  in.fail("d2s's numpy arrays have the dtypes float64, float32, int64 and bool, not " +
              (name.empty() ? py_type_name(v) : name),
          range, "give dtype=np.float32, np.float64, np.int64 or bool");
}

double number_of(Interpreter& in, const IValue& v, const std::string& fname,
                 const SourceRange& range) {
  std::optional<IValue> n = in.to_number(v, PyConversion::Scalar, range);
  if (!n) {
    in.fail("TypeError: " + fname + "() takes numbers here, not " + py_type_name(v), range);
  }
  return n->to_double();
}

// A shape argument: an int or a tuple/list of ints (numpy's `shape`).
Shape shape_arg(Interpreter& in, const IValue& v, const std::string& fname,
                const SourceRange& range) {
  Shape shape;
  if (v.is_int() || v.is_bool()) {
    shape.push_back(v.to_int());
  } else if (const ValueList* items = seq_items(v)) {
    for (const IValue& s : *items) {
      shape.push_back(in.to_index(s, PyConversion::Scalar, range, fname + "() shape"));
    }
  } else {
    in.fail("TypeError: " + fname + "() takes a shape (an int or a tuple of ints), not " +
                py_type_name(v),
            range);
  }
  if (shape.size() > kMaxNpDims) {
    in.fail("ValueError: maximum supported dimension for an ndarray is 32, found " +
                std::to_string(shape.size()),
            range);
  }
  for (int64_t s : shape) {
    if (s < 0) in.fail("ValueError: negative dimensions are not allowed", range);
  }
  if (shape_numel(shape) > max_tensor_elements()) {
    in.fail("numpy array of " + std::to_string(shape_numel(shape)) + " elements is too large",
            range, max_tensor_elements_hint());
  }
  return shape;
}

// The shape and values of nested lists/tuples/arrays of numbers (np.array's `object`);
// `kinds` collects whether floats, ints and bools occur (numpy's dtype inference).
struct Nested {
  Shape shape;
  std::vector<double> data;
  bool has_float = false, has_int = false;
};

void fill_nested(Interpreter& in, const IValue& v, size_t dim, Nested* out,
                 const SourceRange& range) {
  auto ragged = [&]() {
    in.fail(
        "ValueError: setting an array element with a sequence. The requested array has an "
        "inhomogeneous shape after " +
            std::to_string(dim) + " dimensions.",
        range, "every row must have the same length");
  };
  if (auto* a = as_obj<NdArrayValue>(v)) {
    fill_nested(in, a->to_list(), dim, out, range);
    return;
  }
  if (const ValueList* items = seq_items(v)) {
    if (dim >= kMaxNpDims) {
      in.fail("ValueError: maximum supported dimension for an ndarray is 32", range);
    }
    if (dim == out->shape.size()) {
      if (!out->data.empty()) ragged();  // a sequence where earlier rows had numbers
      out->shape.push_back(static_cast<int64_t>(items->size()));
    } else if (out->shape[dim] != static_cast<int64_t>(items->size())) {
      ragged();
    }
    for (const IValue& item : *items) fill_nested(in, item, dim + 1, out, range);
    return;
  }
  if (dim != out->shape.size()) ragged();
  std::optional<IValue> n = in.to_number(v, PyConversion::Scalar, range);
  if (!n) {
    in.fail("d2s builds numpy arrays of Python numbers only, not of a " + py_type_name(v), range,
            "give np.array nested lists or tuples of numbers");
  }
  out->has_float = out->has_float || n->is_double();
  out->has_int = out->has_int || n->is_int();
  out->data.push_back(n->to_double());
}

IValue array_from(Interpreter& in, const IValue& object, const IValue& dtype,
                  const SourceRange& range) {
  Nested n;
  fill_nested(in, object, 0, &n, range);
  NpDType d = n.has_float || n.data.empty() ? NpDType::Float64
              : n.has_int                   ? NpDType::Int64
                                            : NpDType::Bool;
  if (auto* a = as_obj<NdArrayValue>(object)) d = a->dtype;
  if (std::optional<NpDType> given = np_dtype_arg(in, dtype, range)) d = *given;
  return make_array(d, std::move(n.shape), std::move(n.data));
}

}  // namespace

bool NdArrayValue::has_method(const std::string& name) const {
  return name == "astype" || name == "reshape" || name == "tolist" || name == "copy" ||
         name == "flatten";
}

IValue NdArrayValue::call_method(Interpreter& in, const std::string& name, ValueList args,
                                 Kwargs kwargs, const SourceRange& range) {
  if (name == "astype") {
    ValueList a = bind_args("astype", {{"dtype", std::nullopt}, {"copy", IValue(true)}},
                            std::move(args), std::move(kwargs), range);
    std::optional<NpDType> d = np_dtype_arg(in, a[0], range);
    return make_array(d.value_or(NpDType::Float64), shape, data);
  }
  if (name == "tolist") {
    bind_args("tolist", {}, std::move(args), std::move(kwargs), range);
    return to_list();
  }
  if (name == "copy" || name == "flatten") {
    bind_args(name, {}, std::move(args), std::move(kwargs), range);
    return make_array(dtype, name == "copy" ? shape : Shape{static_cast<int64_t>(data.size())},
                      data);
  }
  // reshape(*shape) or reshape(shape), one dim may be -1.
  if (!kwargs.empty()) {
    in.fail(
        "TypeError: reshape() got an unexpected keyword argument '" + kwargs.front().first + "'",
        range);
  }
  ValueList dims = args.size() == 1 && seq_items(args[0]) ? *seq_items(args[0]) : args;
  Shape out;
  int infer = -1;
  int64_t known = 1;
  for (const IValue& d : dims) {
    const int64_t s = in.to_index(d, PyConversion::Scalar, range, "reshape() size");
    if (s == -1 && infer < 0) {
      infer = static_cast<int>(out.size());
    } else if (s < 0) {
      in.fail("ValueError: can only specify one unknown dimension", range);
    } else {
      known *= s;
    }
    out.push_back(s);
  }
  const int64_t total = static_cast<int64_t>(data.size());
  if (infer >= 0 && known != 0 && total % known == 0)
    out[static_cast<size_t>(infer)] = total / known;
  if (shape_numel(out) != total || (infer >= 0 && out[static_cast<size_t>(infer)] < 0)) {
    in.fail("ValueError: cannot reshape array of size " + std::to_string(total) + " into shape " +
                in.py_repr(IValue::tuple([&] {
                  ValueList t;
                  for (const IValue& d : dims) t.push_back(d);
                  return t;
                }())),
            range);
  }
  return make_array(dtype, std::move(out), data);
}

std::optional<IValue> NdArrayValue::attribute(const std::string& name) const {
  if (name == "shape") {
    ValueList dims;
    for (int64_t s : shape) dims.push_back(IValue(s));
    return IValue::tuple(std::move(dims));
  }
  if (name == "ndim") return IValue(static_cast<int64_t>(shape.size()));
  if (name == "size") return IValue(static_cast<int64_t>(data.size()));
  if (name == "T") {
    // The reversed axes: element (i0, ..., in) moves to (in, ..., i0).
    Shape rshape(shape.rbegin(), shape.rend());
    std::vector<double> out(data.size());
    const size_t nd = shape.size();
    std::vector<int64_t> index(nd, 0);
    for (size_t flat = 0; flat < data.size(); ++flat) {
      int64_t dst = 0;
      for (size_t k = 0; k < nd; ++k) dst = dst * rshape[k] + index[nd - 1 - k];
      out[static_cast<size_t>(dst)] = data[flat];
      for (size_t k = nd; k-- > 0;) {
        if (++index[k] < shape[k]) break;
        index[k] = 0;
      }
    }
    return obj(std::make_shared<NdArrayValue>(dtype, std::move(rshape), std::move(out)));
  }
  return std::nullopt;
}

std::string NdArrayValue::repr() const {
  return "<numpy.ndarray " + std::string(np_dtype_name(dtype)) + " " + shape_str(shape) + ">";
}

IValue NdArrayValue::to_list() const {
  auto item = [&](double v) -> IValue {
    if (dtype == NpDType::Int64) return IValue(static_cast<int64_t>(v));
    if (dtype == NpDType::Bool) return IValue(v != 0);
    return IValue(v);
  };
  if (shape.empty()) return data.empty() ? IValue() : item(data[0]);
  // Build from the innermost dimension out: rows of the last dim, then groups of those.
  ValueList level;
  for (double v : data) level.push_back(item(v));
  for (size_t k = shape.size(); k-- > 0;) {
    const size_t n = static_cast<size_t>(shape[k]);
    ValueList grouped;
    if (n == 0) {
      // An empty dim: as many empty lists as the dims before it hold.
      size_t outer = 1;
      for (size_t j = 0; j < k; ++j) outer *= static_cast<size_t>(shape[j]);
      for (size_t i = 0; i < outer; ++i) grouped.push_back(IValue::list({}));
    } else {
      for (size_t i = 0; i < level.size(); i += n) {
        grouped.push_back(IValue::list(ValueList(level.begin() + static_cast<ptrdiff_t>(i),
                                                 level.begin() + static_cast<ptrdiff_t>(i + n))));
      }
    }
    level = std::move(grouped);
  }
  return level.empty() ? IValue::list({}) : level[0];
}

bool is_numpy_array_name(const std::string& q) {
  return q == "numpy.array" || q == "numpy.asarray" || q == "numpy.zeros" || q == "numpy.ones" ||
         q == "numpy.full" || q == "numpy.eye" || q == "numpy.identity" || q == "numpy.arange" ||
         q == "numpy.linspace" || q == "numpy.tril" || q == "numpy.triu";
}

IValue call_numpy_array_name(Interpreter& in, const std::string& q, ValueList args, Kwargs kwargs,
                             const SourceRange& range) {
  const std::string fname = q.substr(6);
  const IValue none;
  if (q == "numpy.array" || q == "numpy.asarray") {
    ValueList a = bind_args(fname, {{"object", std::nullopt}, {"dtype", none}}, std::move(args),
                            std::move(kwargs), range);
    return array_from(in, a[0], a[1], range);
  }
  if (q == "numpy.zeros" || q == "numpy.ones") {
    ValueList a = bind_args(fname, {{"shape", std::nullopt}, {"dtype", none}}, std::move(args),
                            std::move(kwargs), range);
    Shape shape = shape_arg(in, a[0], fname, range);
    const double fill = q == "numpy.ones" ? 1.0 : 0.0;
    std::vector<double> data(static_cast<size_t>(shape_numel(shape)), fill);
    return make_array(np_dtype_arg(in, a[1], range).value_or(NpDType::Float64), std::move(shape),
                      std::move(data));
  }
  if (q == "numpy.full") {
    ValueList a =
        bind_args(fname, {{"shape", std::nullopt}, {"fill_value", std::nullopt}, {"dtype", none}},
                  std::move(args), std::move(kwargs), range);
    Shape shape = shape_arg(in, a[0], fname, range);
    std::optional<IValue> fill = in.to_number(a[1], PyConversion::Scalar, range);
    if (!fill) in.fail("TypeError: full() takes a number as fill_value", range);
    const NpDType inferred = fill->is_double() ? NpDType::Float64
                             : fill->is_int()  ? NpDType::Int64
                                               : NpDType::Bool;
    std::vector<double> data(static_cast<size_t>(shape_numel(shape)), fill->to_double());
    return make_array(np_dtype_arg(in, a[2], range).value_or(inferred), std::move(shape),
                      std::move(data));
  }
  if (q == "numpy.eye" || q == "numpy.identity") {
    ValueList a =
        q == "numpy.eye"
            ? bind_args(
                  fname,
                  {{"N", std::nullopt}, {"M", none}, {"k", IValue(int64_t{0})}, {"dtype", none}},
                  std::move(args), std::move(kwargs), range)
            : bind_args(fname, {{"n", std::nullopt}, {"dtype", none}}, std::move(args),
                        std::move(kwargs), range);
    if (q == "numpy.identity") a = {a[0], none, IValue(int64_t{0}), a[1]};
    const int64_t n = in.to_index(a[0], PyConversion::Scalar, range, fname + "() N");
    const int64_t m = a[1].is_none() ? n : in.to_index(a[1], PyConversion::Scalar, range, "M");
    const int64_t k = in.to_index(a[2], PyConversion::Scalar, range, "k");
    Shape shape = shape_arg(in, IValue::tuple({IValue(n), IValue(m)}), fname, range);
    std::vector<double> data(static_cast<size_t>(n * m), 0.0);
    for (int64_t i = 0; i < n; ++i) {
      if (i + k >= 0 && i + k < m) data[static_cast<size_t>(i * m + i + k)] = 1.0;
    }
    return make_array(np_dtype_arg(in, a[3], range).value_or(NpDType::Float64), std::move(shape),
                      std::move(data));
  }
  if (q == "numpy.tril" || q == "numpy.triu") {
    // The lower (upper) triangle of a matrix, on and below (above) diagonal k; numpy
    // applies it to the last two dims.
    ValueList a = bind_args(fname, {{"m", std::nullopt}, {"k", IValue(int64_t{0})}},
                            std::move(args), std::move(kwargs), range);
    auto* m = as_obj<NdArrayValue>(a[0]);
    IValue arr = m ? a[0] : array_from(in, a[0], none, range);
    m = as_obj<NdArrayValue>(arr);
    if (m->shape.size() < 2) {
      in.fail("d2s implements np." + fname + " of arrays of 2 or more dimensions", range);
    }
    const int64_t k = in.to_index(a[1], PyConversion::Scalar, range, "k");
    const int64_t rows = m->shape[m->shape.size() - 2], cols = m->shape.back();
    std::vector<double> data = m->data;
    for (size_t i = 0; i < data.size(); ++i) {
      const int64_t r = static_cast<int64_t>(i / static_cast<size_t>(cols)) % rows;
      const int64_t c = static_cast<int64_t>(i % static_cast<size_t>(cols));
      const bool keep = q == "numpy.tril" ? c - r <= k : c - r >= k;
      if (!keep) data[i] = 0.0;
    }
    return make_array(m->dtype, m->shape, std::move(data));
  }
  if (q == "numpy.arange") {
    // arange(stop) / arange(start, stop[, step]); ints give int64, any float float64.
    std::optional<IValue> dtype_kw;
    std::erase_if(kwargs, [&](const auto& kw) {
      if (kw.first != "dtype") return false;
      dtype_kw = kw.second;
      return true;
    });
    if (args.size() == 1 && kwargs.empty()) args.insert(args.begin(), IValue(int64_t{0}));
    ValueList a = bind_args(
        fname, {{"start", std::nullopt}, {"stop", std::nullopt}, {"step", IValue(int64_t{1})}},
        std::move(args), std::move(kwargs), range);
    bool all_int = true;
    double v[3];
    for (int i = 0; i < 3; ++i) {
      v[i] = number_of(in, a[i], fname, range);
      all_int = all_int && !a[i].is_double();
    }
    if (v[2] == 0) in.fail("ZeroDivisionError: division by zero", range);
    const double len = std::ceil((v[1] - v[0]) / v[2]);
    const int64_t n = len > 0 ? static_cast<int64_t>(len) : 0;
    Shape shape = shape_arg(in, IValue(n), fname, range);
    std::vector<double> data;
    for (int64_t i = 0; i < n; ++i) data.push_back(v[0] + static_cast<double>(i) * v[2]);
    const NpDType inferred = all_int ? NpDType::Int64 : NpDType::Float64;
    return make_array(np_dtype_arg(in, dtype_kw.value_or(none), range).value_or(inferred),
                      std::move(shape), std::move(data));
  }
  // numpy.linspace(start, stop, num=50, endpoint=True, dtype=None).
  ValueList a = bind_args(fname,
                          {{"start", std::nullopt},
                           {"stop", std::nullopt},
                           {"num", IValue(int64_t{50})},
                           {"endpoint", IValue(true)},
                           {"dtype", none}},
                          std::move(args), std::move(kwargs), range);
  const double start = number_of(in, a[0], fname, range);
  const double stop = number_of(in, a[1], fname, range);
  const int64_t num = in.to_index(a[2], PyConversion::Scalar, range, "num");
  if (num < 0) {
    in.fail("ValueError: Number of samples, " + std::to_string(num) + ", must be non-negative.",
            range);
  }
  const bool endpoint = in.truthy(a[3], range);
  Shape shape = shape_arg(in, IValue(num), fname, range);
  const int64_t div = endpoint ? num - 1 : num;
  const double step = div > 0 ? (stop - start) / static_cast<double>(div) : 0.0;
  std::vector<double> data;
  for (int64_t i = 0; i < num; ++i) data.push_back(start + static_cast<double>(i) * step);
  if (endpoint && num > 1) data.back() = stop;
  return make_array(np_dtype_arg(in, a[4], range).value_or(NpDType::Float64), std::move(shape),
                    std::move(data));
}

std::optional<IValue> call_torch_on_numpy(Interpreter& in, const std::string& q, ValueList& args,
                                          Kwargs& kwargs, const SourceRange& range) {
  const bool legacy = q == "torch.FloatTensor" || q == "torch.Tensor" || q == "torch.LongTensor" ||
                      q == "torch.BoolTensor";
  if (legacy) {
    // torch.FloatTensor(a): the array's values as data, cast to the constructor's dtype.
    if (args.size() == 1) {
      if (auto* a = as_obj<NdArrayValue>(args[0]); a && !a->shape.empty()) {
        IValue list = a->to_list();
        args[0] = list;
      }
    }
    return std::nullopt;
  }
  if (q != "torch.from_numpy" && q != "torch.tensor" && q != "torch.as_tensor" &&
      q != "torch.asarray") {
    return std::nullopt;
  }
  NdArrayValue* array = args.empty() ? nullptr : as_obj<NdArrayValue>(args[0]);
  if (q == "torch.from_numpy") {
    ValueList a = bind_args("from_numpy", {{"ndarray", std::nullopt}}, ValueList(args),
                            Kwargs(kwargs), range);
    if (!array) {
      in.fail("TypeError: expected np.ndarray (got " + py_type_name(a[0]) + ")", range);
    }
  }
  if (!array) {
    if (q != "torch.as_tensor") return std::nullopt;  // torch.tensor(list) goes its usual way
    // torch.as_tensor(data, dtype=None, device=None): a tensor as it is (or converted to
    // dtype), other data as torch.tensor makes it.
    ValueList a =
        bind_args("as_tensor", {{"data", std::nullopt}, {"dtype", IValue()}, {"device", IValue()}},
                  std::move(args), std::move(kwargs), range);
    Kwargs kw;
    if (!a[1].is_none()) kw.emplace_back("dtype", a[1]);
    if (a[0].is_tensor()) {
      if (a[1].is_none()) return a[0];
      return in.call_op("aten::to", {a[0], a[1]}, {}, range);
    }
    return in.call_op("aten::tensor", {a[0]}, std::move(kw), range);
  }
  // The tensor's dtype: dtype= when given (not for from_numpy), else the array's.
  std::optional<DType> dtype;
  Kwargs rest;
  for (auto& [k, v] : kwargs) {
    if (k == "dtype" && q != "torch.from_numpy") {
      if (auto* d = as_obj<DTypeValue>(v)) {
        dtype = d->dtype;
        continue;
      }
      if (!v.is_none()) in.fail("TypeError: dtype must be a torch.dtype", range);
      continue;
    }
    rest.emplace_back(k, v);
  }
  if (args.size() > 1) {
    in.fail("TypeError: " + q + "() takes one positional argument (the data)", range);
  }
  if (!dtype) {
    switch (array->dtype) {
      case NpDType::Float32:
        dtype = DType::Float32;
        break;
      case NpDType::Int64:
        dtype = DType::Int64;
        break;
      case NpDType::Bool:
        dtype = DType::Bool;
        break;
      case NpDType::Float64:
        in.fail(q + "() of a float64 array makes a torch.float64 tensor, and d2s has no float64 "
                    "tensors",
                range,
                q == "torch.from_numpy"
                    ? "convert the array first: torch.from_numpy(a.astype(np.float32))"
                    : "give dtype=torch.float32, or convert the array first: "
                      "a.astype(np.float32)");
    }
  }
  rest.emplace_back("dtype", make_dtype(*dtype));
  if (array->data.empty()) {
    // No values to nest: a tensor of the array's shape (np.zeros((0, 3))).
    return in.call_op("aten::zeros", {IValue::int_list(array->shape)}, std::move(rest), range);
  }
  return in.call_op("aten::tensor", {array->to_list()}, std::move(rest), range);
}

}  // namespace d2s::interp
