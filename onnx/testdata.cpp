// Running one test of ONNX's backend test data (testdata.h).
#include "onnx/testdata.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/base/error.h"
#include "core/exec/executor.h"
#include "onnx/import.h"
#include "onnx/model_check.h"
#include "onnx/tensor_proto.h"

namespace d2s::onnx_io {

namespace {

namespace fs = std::filesystem;

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// input_0.pb, input_1.pb, ... in index order.
std::vector<fs::path> numbered(const fs::path& dir, const std::string& prefix) {
  std::vector<fs::path> out;
  for (int i = 0;; ++i) {
    fs::path p = dir / (prefix + std::to_string(i) + ".pb");
    if (!fs::exists(p)) break;
    out.push_back(p);
  }
  return out;
}

// A stored tensor, or Unsupported for sequences/optionals (not TensorProtos) and
// element types d2s lacks.
Tensor read_tensor(const fs::path& p) {
  onnx::TensorProto t;
  if (!t.ParseFromString(read_bytes(p)) || !t.has_data_type() || t.data_type() == 0) {
    throw Unsupported(p.string() + " is not a TensorProto", "type sequence/optional");
  }
  return tensor_from_proto(t);
}

std::string compare(const Tensor& got, const Tensor& want, size_t index) {
  const std::string which = "output " + std::to_string(index);
  if (got.dtype() != want.dtype()) {
    return which + ": dtype " + dtype_name(got.dtype()) + ", expected " + dtype_name(want.dtype());
  }
  if (got.shape() != want.shape()) return which + ": shape differs";
  for (int64_t i = 0; i < want.numel(); ++i) {
    double g = got.value_at(i), w = want.value_at(i);
    if (std::isnan(g) && std::isnan(w)) continue;
    if (g == w) continue;
    if (!(std::abs(g - w) <= 1e-7 + 1e-3 * std::abs(w))) {
      return which + ": element " + std::to_string(i) + " is " + std::to_string(g) + ", expected " +
             std::to_string(w);
    }
  }
  return {};
}

}  // namespace

TestOutcome run_onnx_test(const std::string& folder) {
  TestOutcome out;
  try {
    onnx::ModelProto model = read_model_file((fs::path(folder) / "model.onnx").string());
    std::vector<fs::path> sets;
    for (const auto& e : fs::directory_iterator(folder)) {
      if (e.is_directory() && e.path().filename().string().rfind("test_data_set_", 0) == 0) {
        sets.push_back(e.path());
      }
    }
    std::sort(sets.begin(), sets.end());
    if (sets.empty()) return {TestOutcome::Skipped, "no data sets"};
    // Sequence and optional values are stored as other messages, which protobuf would
    // read as (wrong) TensorProtos: the model's types tell.
    for (const auto* list : {&model.graph().input(), &model.graph().output()}) {
      for (const auto& v : *list) {
        if (!v.type().has_tensor_type()) return {TestOutcome::Skipped, "type sequence/optional"};
      }
    }
    // The model's real inputs (IR < 4 lists initializers among them too).
    std::set<std::string> inits;
    for (const auto& t : model.graph().initializer()) inits.insert(t.name());
    std::vector<std::string> input_names;
    for (const auto& in : model.graph().input()) {
      if (!inits.count(in.name())) input_names.push_back(in.name());
    }
    for (const fs::path& set : sets) {
      std::vector<fs::path> in_files = numbered(set, "input_");
      std::vector<fs::path> out_files = numbered(set, "output_");
      ImportOptions opts;
      ValueList inputs;
      for (size_t i = 0; i < in_files.size() && i < input_names.size(); ++i) {
        Tensor t = read_tensor(in_files[i]);
        opts.known_inputs[input_names[i]] = t;
        inputs.emplace_back(t);
      }
      std::vector<Tensor> expected;
      for (const auto& f : out_files) expected.push_back(read_tensor(f));
      ImportedModel imported = import_onnx(model, folder + "/model.onnx", opts);
      if (inputs.size() != imported.input_names.size()) {
        return {TestOutcome::Skipped, "inputs omitted"};
      }
      for (const auto& [name, t] : imported.parameters) inputs.emplace_back(t);
      Executor exec(*imported.graph);
      ValueList results = exec.run(inputs);
      if (results.size() != expected.size()) {
        return {TestOutcome::Failed, "gave " + std::to_string(results.size()) +
                                         " outputs, expected " + std::to_string(expected.size())};
      }
      for (size_t i = 0; i < results.size(); ++i) {
        const IValue& r = results[i];
        Tensor got = r.is_tensor() ? r.to_tensor()
                     : r.is_int()  ? Tensor::scalar(static_cast<double>(r.to_int()), DType::Int64)
                     : r.is_bool() ? Tensor::scalar(r.to_bool(), DType::Bool)
                                   : Tensor::scalar(r.to_double(), DType::Float32);
        std::string diff = compare(got, expected[i], i);
        if (!diff.empty()) return {TestOutcome::Failed, set.filename().string() + ": " + diff};
      }
    }
    out.kind = TestOutcome::Passed;
  } catch (const Unsupported& e) {
    out = {TestOutcome::Skipped, e.key};
  } catch (const Error& e) {
    out = {TestOutcome::Failed, e.message()};
  } catch (const std::exception& e) {
    out = {TestOutcome::Failed, e.what()};
  }
  return out;
}

}  // namespace d2s::onnx_io
