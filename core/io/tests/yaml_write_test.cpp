// Writing outputs and tensor maps (core/io/yaml_io.h) and atomic writes (core/base/file_io.h).
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/base/error.h"
#include "core/base/file_io.h"
#include "core/io/yaml_io.h"
#include "core/tensor/random.h"

namespace d2s {
namespace {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------
// Writing

TEST(YamlOutputs, FloatsRoundTripExactly) {
  const float samples[] = {0.1f,   1.0f,        -0.0f,        3.4028235e38f, 1.17549435e-38f,
                           1e-45f, 123456789.f, 0.333333343f, 16777216.f,    -2.5e-7f};
  for (float v : samples) {
    std::string s = format_float32(v);
    EXPECT_NE(s.find('.'), std::string::npos) << s;  // PyYAML needs the dot
    float back = YAML::Load(s).as<float>();
    EXPECT_EQ(std::memcmp(&back, &v, sizeof v), 0) << s;
  }
  EXPECT_EQ(format_float32(0.1f), "0.1");
  EXPECT_EQ(format_float32(1.0f), "1.0");
  EXPECT_EQ(format_float32(10.0f), "10.0");
  EXPECT_EQ(format_float32(1e10f), "10000000000.0");
  EXPECT_EQ(format_float32(123456789.f), "123456790.0");  // reads back as 123456792
  EXPECT_EQ(format_float32(1e20f), "1.0e+20");
  EXPECT_EQ(format_float32(0.0001f), "0.0001");
  EXPECT_EQ(format_float32(1e-5f), "1.0e-05");
  EXPECT_EQ(format_float32(-2.5e-7f), "-2.5e-07");
  EXPECT_EQ(format_float32(-0.0f), "-0.0");
  EXPECT_EQ(format_float32(0.0f), "0.0");
  EXPECT_EQ(format_float32(std::nanf("")), ".nan");
  EXPECT_EQ(format_float32(-INFINITY), "-.inf");
  EXPECT_EQ(format_float64(0.1), "0.1");
  EXPECT_EQ(YAML::Load(format_float64(1.0 / 3)).as<double>(), 1.0 / 3);
}

TEST(YamlOutputs, RandomFloatBitPatternsRoundTrip) {
  Generator gen(1);
  for (int i = 0; i < 20000; ++i) {
    auto bits = static_cast<uint32_t>(gen.next_u64());
    float v;
    std::memcpy(&v, &bits, sizeof v);
    if (std::isnan(v)) continue;
    std::string s = format_float32(v);
    float back = YAML::Load(s).as<float>();
    ASSERT_EQ(std::memcmp(&back, &v, sizeof v), 0) << s;
    double d = static_cast<double>(v) * 1.0000001;
    ASSERT_EQ(YAML::Load(format_float64(d)).as<double>(), d) << format_float64(d);
  }
}

TEST(YamlOutputs, SingleSetForms) {
  Tensor t = Tensor::from_floats({1, 3}, {0.5f, 1.0f, -2.25f});
  IValue ret = IValue::tuple({t, IValue(int64_t{5}), IValue(0.5), IValue(true), IValue(),
                              IValue::tuple({IValue(int64_t{1}), Tensor::scalar(2.0)})});
  std::string yaml = format_outputs_yaml({RunResult{ret, std::nullopt}}, false);
  EXPECT_EQ(yaml,
            "outputs:\n"
            "  - {shape: [1, 3], dtype: float32, data: [0.5, 1.0, -2.25]}\n"
            "  - 5\n"
            "  - 0.5\n"
            "  - true\n"
            "  - null\n"
            "  - [1, {shape: [], dtype: float32, data: [2.0]}]\n");
  YAML::Node doc = YAML::Load(yaml);
  EXPECT_EQ(doc["outputs"].size(), 6u);
  EXPECT_EQ(doc["outputs"][0]["data"][2].as<float>(), -2.25f);
}

TEST(YamlOutputs, SingleValueNoneAndDtypes) {
  EXPECT_EQ(format_outputs_yaml({RunResult{IValue(), std::nullopt}}, false), "outputs: []\n");
  EXPECT_EQ(format_outputs_yaml({RunResult{IValue(int64_t{3}), std::nullopt}}, false),
            "outputs:\n  - 3\n");
  Tensor b = Tensor::from_bools({2}, {true, false});
  Tensor i = Tensor::from_ints({2}, {9007199254740993LL, -1});
  EXPECT_EQ(format_value_yaml(b), "{shape: [2], dtype: bool, data: [true, false]}");
  EXPECT_EQ(format_value_yaml(i), "{shape: [2], dtype: int64, data: [9007199254740993, -1]}");
  EXPECT_EQ(format_value_yaml(IValue::list({IValue("a\"b")})), "[\"a\\\"b\"]");
}

TEST(YamlOutputs, SeveralSetsAndGrads) {
  std::vector<RunResult> results = {
      RunResult{IValue(int64_t{1}), std::nullopt},
      RunResult{IValue(), std::vector<std::pair<std::string, IValue>>{
                              {"x", Tensor::from_floats({1}, {2.f})}, {"w.weight", IValue()}}}};
  std::string yaml = format_outputs_yaml(results, true);
  EXPECT_EQ(yaml,
            "- outputs:\n"
            "    - 1\n"
            "- outputs: []\n"
            "  grads:\n"
            "    x: {shape: [1], dtype: float32, data: [2.0]}\n"
            "    w.weight: null\n");
  YAML::Node doc = YAML::Load(yaml);
  ASSERT_TRUE(doc.IsSequence());
  EXPECT_EQ(doc[0]["outputs"][0].as<int>(), 1);
  EXPECT_TRUE(doc[1]["grads"]["w.weight"].IsNull());
}

TEST(YamlOutputs, LongTensorsWrapAndStillParse) {
  std::vector<float> data(1000);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i) / 7.0f;
  Tensor t = Tensor::from_floats({10, 100}, data);
  for (bool as_list : {false, true}) {
    std::string yaml =
        format_outputs_yaml({RunResult{IValue::tuple({t, t}), std::nullopt}}, as_list);
    size_t longest = 0, start = 0;
    for (size_t nl; (nl = yaml.find('\n', start)) != std::string::npos; start = nl + 1) {
      longest = std::max(longest, nl - start);
    }
    EXPECT_LE(longest, 100u);
    YAML::Node doc = YAML::Load(yaml);
    YAML::Node outs = as_list ? doc[0]["outputs"] : doc["outputs"];
    ASSERT_EQ(outs[1]["data"].size(), 1000u);
    for (size_t i = 0; i < data.size(); ++i) EXPECT_EQ(outs[1]["data"][i].as<float>(), data[i]);
  }
}

TEST(YamlOutputs, ObjectsAreAnError) {
  struct Fn : Object {
    std::string type_name() const override { return "function"; }
  };
  EXPECT_THROW(format_value_yaml(IValue(std::shared_ptr<Object>(std::make_shared<Fn>()))), Error);
}

TEST(YamlOutputs, TensorMapReadsBackAsWeights) {
  Tensor a = Tensor::from_floats({2, 2}, {0.1f, -1e-8f, 3.f, NAN});
  Tensor b = Tensor::from_floats({3}, {1.f, 2.f, 3.f});
  std::string yaml = format_tensor_map_yaml({{"layer.0.weight", a}, {"true", b}});
  auto w = parse_weights(std::make_shared<SourceFile>("w.yaml", yaml));
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0].name, "layer.0.weight");
  EXPECT_EQ(w[0].tensor.shape(), (Shape{2, 2}));
  EXPECT_EQ(w[0].tensor.value_at(1), static_cast<double>(-1e-8f));
  EXPECT_TRUE(std::isnan(w[0].tensor.value_at(3)));
  EXPECT_EQ(w[1].name, "true");  // quoted so that it stays a name
  EXPECT_EQ(format_tensor_map_yaml({}), "{}\n");
}

// ---------------------------------------------------------------------------
// Atomic writes

class AtomicWrite : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("d2s_yaml_io_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  static std::string read(const fs::path& p) {
    std::ifstream in(p);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  size_t entries() const {
    return static_cast<size_t>(std::distance(fs::directory_iterator(dir_), {}));
  }
  fs::path dir_;
};

TEST_F(AtomicWrite, WritesAndReplacesWhole) {
  fs::path p = dir_ / "out.yaml";
  write_file_atomic(p.string(), "first\n");
  EXPECT_EQ(read(p), "first\n");
  write_file_atomic(p.string(), "second\n");
  EXPECT_EQ(read(p), "second\n");
  EXPECT_EQ(entries(), 1u);  // no temporary left behind
}

TEST_F(AtomicWrite, FailureLeavesNoFile) {
  fs::path p = dir_ / "missing" / "out.yaml";
  try {
    write_file_atomic(p.string(), "x");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("cannot write"), std::string::npos);
    EXPECT_NE(e.message().find("does not exist"), std::string::npos);
    EXPECT_EQ(e.exit_code(), 2);
  }
  EXPECT_FALSE(fs::exists(p));
  EXPECT_EQ(entries(), 0u);
}

TEST_F(AtomicWrite, DirectoryTargetIsAnError) {
  EXPECT_THROW(write_file_atomic(dir_.string(), "x"), Error);
}

// A write that fails half-way (here: the file size limit, which binds root too)
// leaves the old file whole and no temporary behind.
TEST_F(AtomicWrite, WriteFailingHalfWayKeepsTheOldFile) {
  fs::path p = dir_ / "out.yaml";
  write_file_atomic(p.string(), "old\n");
  struct rlimit saved;
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  auto old_handler = std::signal(SIGXFSZ, SIG_IGN);  // get EFBIG instead of a signal
  struct rlimit small = saved;
  small.rlim_cur = 16;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  bool threw = false;
  try {
    write_file_atomic(p.string(), std::string(4096, 'x'));
  } catch (const Error& e) {
    threw = true;
    EXPECT_NE(e.message().find("cannot write"), std::string::npos);
  }
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_TRUE(threw);
  EXPECT_EQ(read(p), "old\n");
  EXPECT_EQ(entries(), 1u);
}

TEST_F(AtomicWrite, WritesThroughSymlink) {
  fs::path real = dir_ / "real.yaml", link = dir_ / "link.yaml";
  write_file_atomic(real.string(), "a");
  fs::create_symlink(real, link);
  write_file_atomic(link.string(), "b");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read(real), "b");
}

TEST_F(AtomicWrite, WriteOutputsYaml) {
  fs::path p = dir_ / "o.yaml";
  write_outputs_yaml(p.string(), {RunResult{IValue(int64_t{2}), std::nullopt}}, false);
  EXPECT_EQ(read(p), "outputs:\n  - 2\n");
  EXPECT_TRUE(same_file(p.string(), (dir_ / "." / "o.yaml").string()));
  EXPECT_FALSE(same_file(p.string(), (dir_ / "nope.yaml").string()));
}

}  // namespace
}  // namespace d2s
