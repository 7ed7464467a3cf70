// The reference executor: straight-line code, If, Loop (for and while), guards,
// print, assert, tuples, kernel errors, limits, long graphs and liveness.
#include "core/exec/executor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>

#include "core/base/error.h"
#include "core/io/graph_yaml.h"
#include "core/ir/tests/ir_test_util.h"

namespace d2s {
namespace {

using ir::Graph;
using ir::Node;
using ir::Type;
using ir::Value;
namespace kind = ir::kind;

std::shared_ptr<const SourceFile> model() {
  static auto file =
      std::make_shared<const SourceFile>("model.py",
                                         "def f(x):\n"
                                         "  assert x.sum() > 0, 'x must be positive'\n"
                                         "  while True:\n"
                                         "    pass\n"
                                         "  return torch.mm(x, x)\n");
  return file;
}
SourceRange at(int line, int col = 1) {
  return SourceRange(model(), line, col);
}

IValue tensor(const Shape& shape, std::vector<float> data) {
  return IValue(Tensor::from_floats(shape, data));
}

std::vector<float> floats(const IValue& v) {
  const Tensor& t = v.to_tensor();
  return std::vector<float>(t.data<float>(), t.data<float>() + t.numel());
}

Error run_error(Executor& exec, const ValueList& inputs) {
  try {
    exec.run(inputs);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "the run succeeded";
  return Error("");
}

TEST(ExecutorTest, RunsStraightLineCode) {
  Graph g;
  Value* x = g.add_input("x", Type::tensor());
  Value* y = g.add_input("y", Type::tensor());
  Value* two = g.insert_constant(IValue(2.0), at(1));
  Node* add = g.insert("aten::add", {x, y}, 1, at(2));
  Node* mul = g.insert("aten::mul", {add->output(), two}, 1, at(3));
  Node* n = g.insert(
      "aten::add",
      {g.insert_constant(IValue(int64_t{3}), at(4)), g.insert_constant(IValue(int64_t{4}), at(4))},
      1, at(4));
  // The lowering's form: overload named, keyword-only `alpha` in schema order.
  Node* axpy =
      g.insert("aten::add", {x, y, g.insert_constant(IValue(int64_t{2}), at(5))}, 1, at(5));
  axpy->set_overload("Tensor");
  g.register_output(mul->output());
  g.register_output(n->output());
  g.register_output(axpy->output());
  Executor exec(g);
  ValueList out = exec.run({tensor({2}, {1, 2}), tensor({2}, {10, 20})});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(floats(out[0]), (std::vector<float>{22, 44}));
  ASSERT_TRUE(out[1].is_int());  // Python ints stay ints
  EXPECT_EQ(out[1].to_int(), 7);
  EXPECT_EQ(floats(out[2]), (std::vector<float>{21, 42}));
  // Runs again with other inputs (kernels cached on the first run).
  out = exec.run({tensor({2}, {0, 0}), tensor({2}, {1, 1})});
  EXPECT_EQ(floats(out[0]), (std::vector<float>{2, 2}));
}

TEST(ExecutorTest, RunsBothSidesOfAnIf) {
  auto g = ir::testing::make_foo1();  // aten::add(x, y, alpha): alpha passed in schema order
  std::ostringstream printed;
  ExecOptions opts;
  opts.out = &printed;
  Executor exec(*g, opts);
  ValueList out = exec.run({tensor({1, 1}, {1}), tensor({1, 1}, {2})});
  EXPECT_EQ(floats(out[0]), (std::vector<float>{3}));  // then: x + y
  out = exec.run({tensor({1, 1}, {5}), tensor({1, 1}, {2})});
  EXPECT_EQ(floats(out[0]), (std::vector<float>{2}));  // else: y
  EXPECT_EQ(printed.str(), tensor({1, 1}, {3}).str() + "\n" + tensor({1, 1}, {2}).str() + "\n");
}

TEST(ExecutorTest, RunsALoopAsAFor) {
  auto g = ir::testing::make_loop(false);  // for i in range(n): h = tanh(h) + i
  Executor exec(*g);
  ValueList out = exec.run({IValue(int64_t{3}), tensor({1, 4}, {0, 0, 0, 0})});
  float expected = std::tanh(1.0f) + 2;  // h: 0 → 0 → 1 → tanh(1) + 2
  for (float v : floats(out[0])) EXPECT_FLOAT_EQ(v, expected);
  EXPECT_EQ(exec.stats().loop_iterations, 3);
  out = exec.run({IValue(int64_t{0}), tensor({1, 4}, {5, 5, 5, 5})});
  EXPECT_EQ(floats(out[0]), (std::vector<float>{5, 5, 5, 5}));
  out = exec.run({IValue(int64_t{-2}), tensor({1, 4}, {5, 5, 5, 5})});
  EXPECT_EQ(floats(out[0]), (std::vector<float>{5, 5, 5, 5}));
}

TEST(ExecutorTest, RunsALoopAsAWhile) {
  auto g = ir::testing::make_loop(true);  // k = 0; while k < n: h = tanh(h) + k; k += 1
  Executor exec(*g);
  ValueList out = exec.run({IValue(int64_t{3}), tensor({1, 4}, {0, 0, 0, 0})});
  for (float v : floats(out[0])) EXPECT_FLOAT_EQ(v, std::tanh(1.0f) + 2);
  out = exec.run({IValue(int64_t{0}), tensor({1, 4}, {7, 7, 7, 7})});
  EXPECT_EQ(floats(out[0]), (std::vector<float>{7, 7, 7, 7}));
}

TEST(ExecutorTest, EndlessLoopsEndWithAnError) {
  Graph g;
  Value* max = g.insert_constant(IValue(std::numeric_limits<int64_t>::max()), at(3, 3));
  Value* t = g.insert_constant(IValue(true), at(3, 9));
  Node* loop = g.insert(kind::Loop, {max, t}, 0, at(3, 3));
  ir::Block* body = loop->add_block();
  body->add_input("i")->set_type(Type::of_int());
  body->register_output(t);
  ExecOptions opts;
  opts.max_loop_iterations = 1000;
  Executor exec(g, opts);
  Error e = run_error(exec, {});
  EXPECT_NE(e.message().find("loop did not finish: more than 1000 loop iterations"),
            std::string::npos)
      << e.message();
  EXPECT_NE(e.message().find("line 3"), std::string::npos);
  EXPECT_EQ(e.range().line, 3);
  EXPECT_EQ(e.exit_code(), 2);
}

// x.mean() > 0.5 was True when traced.
std::unique_ptr<Graph> bool_guard_graph() {
  auto g = std::make_unique<Graph>();
  Value* x = g->add_input("x", Type::tensor());
  Node* mean = g->insert("aten::mean", {x}, 1, at(2, 10));
  Node* gt = g->insert("aten::gt", {mean->output(), g->insert_constant(IValue(0.5), at(2, 21))}, 1,
                       at(2, 10));
  Node* guard = g->insert(kind::Guard, {gt->output()}, 0, at(2, 10));
  guard->set_attr("seen", IValue(true));
  guard->set_attr("expr", IValue("x.mean() > 0.5"));
  guard->set_attr("what", IValue("bool"));
  g->register_output(mean->output());
  return g;
}

TEST(ExecutorTest, GuardsPassAndFail) {
  auto g = bool_guard_graph();
  Executor exec(*g);
  EXPECT_NO_THROW(exec.run({tensor({2}, {1, 1})}));
  Error e = run_error(exec, {tensor({2}, {0, 0})});
  EXPECT_EQ(e.message(), "trace guard failed: 'x.mean() > 0.5' was True when traced, is False now");
  EXPECT_EQ(e.exit_code(), 1);
  EXPECT_EQ(e.range().line, 2);
  EXPECT_EQ(e.range().col, 10);
  EXPECT_EQ(e.hint(),
            "this input takes a path the trace did not record; use the parse route (d2s run "
            "--mode parse) or d2s diff to see what tracing lost");
}

// The diff runs a guarded trace as its plain copy from one plan.
TEST(ExecutorTest, GuardsCanBeTurnedOffBetweenRuns) {
  auto g = bool_guard_graph();
  Executor exec(*g);
  const ValueList other_side = {tensor({2}, {0, 0})};
  EXPECT_EQ(run_error(exec, other_side).exit_code(), 1);
  exec.set_check_guards(false);
  ValueList out = exec.run(other_side);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].to_tensor().item(), 0.0);  // the mean of the other side
  exec.set_check_guards(true);
  EXPECT_EQ(run_error(exec, other_side).exit_code(), 1);
}

TEST(ExecutorTest, ShapeAndValueGuards) {
  Graph g;
  Value* x = g.add_input("x", Type::tensor());
  Value* n = g.add_input("n", Type::of_int());
  Value* f = g.add_input("f", Type::of_float());
  Node* shape = g.insert(kind::Guard, {x}, 0, at(1, 7));
  shape->set_attr("seen", IValue::int_list({2, 3}));
  shape->set_attr("expr", IValue("x"));
  shape->set_attr("what", IValue("shape"));
  Node* ng = g.insert(kind::Guard, {n}, 0, at(2));
  ng->set_attr("seen", IValue(int64_t{4}));
  ng->set_attr("expr", IValue("n"));
  ng->set_attr("what", IValue("input"));
  Node* fg = g.insert(kind::Guard, {f}, 0, at(3));
  fg->set_attr("seen", IValue(0.1));
  fg->set_attr("what", IValue("input"));
  Executor exec(g);
  Tensor t23 = Tensor::zeros({2, 3});
  EXPECT_NO_THROW(exec.run({IValue(t23), IValue(int64_t{4}), IValue(0.1)}));

  Error e = run_error(exec, {IValue(Tensor::zeros({4, 3})), IValue(int64_t{4}), IValue(0.1)});
  EXPECT_EQ(e.message(), "trace guard failed: 'x' had shape [2, 3] when traced, has [4, 3] now");
  EXPECT_EQ(e.exit_code(), 1);
  EXPECT_EQ(e.range().col, 7);

  e = run_error(exec, {IValue(t23), IValue(int64_t{5}), IValue(0.1)});
  EXPECT_EQ(e.message(), "trace guard failed: 'n' was 4 when traced, is 5 now");
  EXPECT_EQ(e.range().line, 2);

  e = run_error(exec, {IValue(t23), IValue(int64_t{4}), IValue(0.1 + 1e-16)});  // exact
  EXPECT_EQ(e.range().line, 3);
  EXPECT_NE(e.message().find("the value was 0.1 when traced"), std::string::npos) << e.message();
}

TEST(ExecutorTest, AssertFailsAtItsLine) {
  Graph g;
  Value* x = g.add_input("x", Type::tensor());
  Node* sum = g.insert("aten::sum", {x}, 1, at(2, 10));
  Node* gt = g.insert("aten::gt", {sum->output(), g.insert_constant(IValue(int64_t{0}), at(2, 20))},
                      1, at(2, 10));
  Node* not_ok = g.insert("aten::logical_not", {gt->output()}, 1, at(2, 3));
  Node* if_node = g.insert(kind::If, {not_ok->output()}, 0, at(2, 3));
  ir::Block* then_b = if_node->add_block();
  if_node->add_block();
  {
    ir::WithInsertPoint guard(g, then_b);
    Value* msg = g.insert_constant(IValue("x must be positive"), at(2, 23));
    g.insert(kind::RaiseException, {msg}, 0, at(2, 3))->set_attr("kind", IValue("AssertionError"));
  }
  g.register_output(sum->output());
  Executor exec(g);
  EXPECT_EQ(floats(exec.run({tensor({2}, {1, 2})})[0]), (std::vector<float>{3}));
  Error e = run_error(exec, {tensor({2}, {-1, -2})});
  EXPECT_EQ(e.message(), "AssertionError: x must be positive");
  EXPECT_EQ(e.exit_code(), 1);
  EXPECT_EQ(e.range().line, 2);
  EXPECT_NE(e.format().find("assert x.sum() > 0"), std::string::npos) << e.format();
}

// A raised exception other than a failed assert ends the run with exit 2, as the eager
// interpreter ends it; the message is Python's `Kind: message`.
TEST(ExecutorTest, RaisedExceptionsOtherThanAssertExitWith2) {
  for (const char* kind : {"TypeError", "ValueError", "Exception"}) {
    Graph g;
    Value* x = g.add_input("x", Type::tensor());
    Value* msg = g.insert_constant(IValue("bad input"), at(3, 10));
    g.insert(kind::RaiseException, {msg}, 0, at(3, 5))->set_attr("kind", IValue(kind));
    g.register_output(x);
    Executor exec(g);
    Error e = run_error(exec, {tensor({1}, {1})});
    EXPECT_EQ(e.message(), std::string(kind) + ": bad input");
    EXPECT_EQ(e.exit_code(), 2) << kind;
  }
}

TEST(ExecutorTest, PrintsValuesJoinedBySpaces) {
  Graph g;
  Value* x = g.add_input("x", Type::tensor());
  g.insert(kind::Print,
           {g.insert_constant(IValue("x ="), at(1)), x,
            g.insert_constant(IValue(int64_t{3}), at(1)), g.insert_constant(IValue(2.5), at(1))},
           0, at(1));
  std::ostringstream out;
  ExecOptions opts;
  opts.out = &out;
  Executor(g, opts).run({tensor({2}, {1, 2})});
  EXPECT_EQ(out.str(), "x = " + tensor({2}, {1, 2}).str() + " 3 2.5\n");
  EXPECT_NO_THROW(Executor(g).run({tensor({2}, {1, 2})}));  // no stream: discarded
}

TEST(ExecutorTest, TuplesListsAndMultipleResults) {
  Graph g;
  Value* x = g.add_input("x", Type::tensor());
  Value* one = g.insert_constant(IValue(int64_t{1}), at(1));
  Node* max = g.insert("aten::max", {x, one}, 2, at(2));
  max->set_overload("dim");
  Node* tup = g.insert(kind::TupleConstruct, {max->output(0), max->output(1), one}, 1, at(3));
  Node* idx = g.insert(kind::TupleIndex,
                       {tup->output(), g.insert_constant(IValue(int64_t{-1}), at(3))}, 1, at(3));
  Node* un = g.insert(kind::TupleUnpack, {tup->output()}, 3, at(4));
  Node* list = g.insert(kind::ListConstruct, {one, idx->output()}, 1, at(5));
  Node* lun = g.insert(kind::ListUnpack, {list->output()}, 2, at(5));
  Node* u = g.insert(kind::Uninitialized, {}, 1, at(6));
  g.register_output(un->output(0));
  g.register_output(un->output(1));
  g.register_output(lun->output(1));
  g.register_output(u->output());
  g.register_output(tup->output());
  ValueList out = Executor(g).run({tensor({2, 2}, {1, 5, 7, 3})});
  EXPECT_EQ(floats(out[0]), (std::vector<float>{5, 7}));
  EXPECT_EQ(out[1].to_tensor().dtype(), DType::Int64);
  EXPECT_EQ(out[1].to_tensor().data<int64_t>()[0], 1);
  EXPECT_EQ(out[2].to_int(), 1);
  EXPECT_TRUE(out[3].is_none());
  EXPECT_EQ(out[4].tuple_items().size(), 3u);

  Graph bad;
  Value* t = bad.add_input("t", Type::any());
  bad.register_output(bad.insert(kind::TupleUnpack, {t}, 2, at(4))->output(0));
  Error e = run_error(*std::make_unique<Executor>(bad), {IValue::tuple({IValue(1)})});
  EXPECT_EQ(e.message(), "ValueError: expected 2 value(s) to unpack, got 1");
  EXPECT_EQ(e.range().line, 4);
}

TEST(ExecutorTest, KernelErrorsGetTheNodesLocation) {
  Graph g;
  Value* x = g.add_input("x", Type::tensor());
  g.register_output(g.insert("aten::mm", {x, x}, 1, at(5, 10))->output());
  Executor exec(g);
  Error e = run_error(exec, {tensor({2, 3}, {1, 2, 3, 4, 5, 6})});
  EXPECT_EQ(e.range().line, 5);
  EXPECT_EQ(e.range().col, 10);
  EXPECT_NE(e.format().find("return torch.mm(x, x)"), std::string::npos) << e.format();

  e = run_error(exec, {IValue("text")});
  EXPECT_NE(e.message().find("mm()"), std::string::npos) << e.message();
  EXPECT_EQ(e.range().line, 5);

  e = run_error(exec, {});
  EXPECT_EQ(e.message(), "the graph takes 1 input(s), got 0");

  Graph unknown;
  unknown.insert("aten::no_such_op", {}, 0, at(1));
  EXPECT_THROW(Executor{unknown}, Error);
}

TEST(ExecutorTest, RunsA100000NodeChainWithFewLiveValues) {
  Graph g;
  auto file = std::make_shared<const SourceFile>("chain.py", "");
  Value* v = g.add_input("x", Type::tensor());
  for (int i = 0; i < 100000; ++i)
    v = g.insert("aten::neg", {v}, 1, SourceRange(file, 1, 1))->output();
  g.register_output(v);
  Executor exec(g);
  ValueList out = exec.run({tensor({3}, {1, 2, 3})});
  EXPECT_EQ(floats(out[0]), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(exec.stats().instructions, 100000);
  EXPECT_LE(exec.stats().peak_live_slots, 2u);
  EXPECT_EQ(exec.num_slots(), 100001u);
}

TEST(ExecutorTest, ValuesUsedInALoopStayAliveForIt) {
  // w is defined before the loop, read in every iteration, and dead after it.
  Graph g;
  Value* x = g.add_input("x", Type::tensor());
  Node* w = g.insert("aten::neg", {x}, 1, at(1));
  Value* n = g.insert_constant(IValue(int64_t{4}), at(2));
  Value* t = g.insert_constant(IValue(true), at(2));
  Node* loop = g.insert(kind::Loop, {n, t, x}, 1, at(2));
  ir::Block* body = loop->add_block();
  body->add_input("i");
  Value* acc = body->add_input("acc");
  {
    ir::WithInsertPoint guard(g, body);
    Node* add = g.insert("aten::add", {acc, w->output()}, 1, at(3));
    body->register_output(t);
    body->register_output(add->output());
  }
  Node* tail = g.insert("aten::neg", {loop->output()}, 1, at(4));
  g.register_output(tail->output());
  Executor exec(g);
  ValueList out = exec.run({tensor({1}, {1})});
  EXPECT_EQ(floats(out[0]), (std::vector<float>{3}));  // -(1 - 4)
  EXPECT_LE(exec.stats().peak_live_slots, 7u);
}

TEST(ExecutorTest, RunsAGraphReadBackFromItsFile) {
  auto g = ir::graph_from_yaml(std::make_shared<const SourceFile>(
      "g.yaml", ir::graph_to_yaml(*ir::testing::make_loop(true))));
  ValueList out = Executor(*g).run({IValue(int64_t{3}), tensor({1, 4}, {0, 0, 0, 0})});
  for (float v : floats(out[0])) EXPECT_FLOAT_EQ(v, std::tanh(1.0f) + 2);
}

}  // namespace
}  // namespace d2s
