// The verifier: well-formed graphs pass; each invariant, broken, gives its message
// at the node's location.
#include <gtest/gtest.h>

#include "core/base/error.h"
#include "core/ir/tests/ir_test_util.h"
#include "core/ir/verify.h"

namespace d2s::ir {
namespace {

using testing::foo1_at;
using testing::make_foo1;
using testing::make_loop;

// Runs the verifier and returns its error (failing the test when it passes).
Error verify_error(const Graph& g) {
  try {
    verify(g);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "verify() accepted the graph";
  return Error("");
}

void expect_invalid(const Graph& g, const std::string& part, int line = -1) {
  Error e = verify_error(g);
  EXPECT_NE(e.message().find(part), std::string::npos) << e.message();
  EXPECT_EQ(e.message().rfind("invalid IR: ", 0), 0u) << e.message();
  EXPECT_EQ(e.exit_code(), 2);
  if (line >= 0) {
    EXPECT_EQ(e.range().line, line) << e.message();
  }
}

Node* first(const Block* b) {
  return *b->nodes().begin();
}
Node* if_of(const Graph& g) {
  return first(g.block())->next();
}

TEST(IrVerifyTest, AcceptsWellFormedGraphs) {
  EXPECT_NO_THROW(verify(*make_foo1()));
  EXPECT_NO_THROW(verify(*make_loop(false)));
  EXPECT_NO_THROW(verify(*make_loop(true)));
  EXPECT_NO_THROW(verify(Graph()));
}

TEST(IrVerifyTest, UnknownKinds) {
  auto g = make_foo1();
  g->insert("aten::no_such_op", {}, 0, foo1_at(8, 3));
  expect_invalid(*g, "unknown node kind 'aten::no_such_op'", 8);

  auto h = make_foo1();
  h->insert("prim::Frobnicate", {}, 0, foo1_at(8, 3));
  expect_invalid(*h, "unknown node kind 'prim::Frobnicate'", 8);

  auto k = make_foo1();
  first(k->block())->set_overload("no_such_overload");
  expect_invalid(*k, "'aten::lt' has no overload 'no_such_overload'", 3);
}

TEST(IrVerifyTest, EveryNodeNeedsALocation) {
  auto g = make_foo1();
  g->insert(kind::Print, {}, 0, SourceRange());
  expect_invalid(*g, "the node has no source location");
}

TEST(IrVerifyTest, UseBeforeDefinition) {
  auto g = make_foo1();
  Node* lt = first(g->block());
  Node* neg = g->create("aten::neg", {lt->output()}, 1, foo1_at(2, 3));
  neg->insert_before(lt);
  expect_invalid(*g, "is used before it is defined", 2);
}

TEST(IrVerifyTest, UseOutsideTheDefiningBlock) {
  auto g = make_foo1();
  Node* if_node = if_of(*g);
  Value* inner = IfView(if_node).then_block()->outputs()[0];
  g->insert(kind::Print, {inner}, 0, foo1_at(8, 3));
  expect_invalid(*g, "is used outside the block that defines it", 8);

  auto l = make_loop();
  Node* loop = l->block()->return_node()->prev();
  l->insert(kind::Print, {LoopView(loop).trip_index()}, 0, SourceRange(loop->range().file, 9, 1));
  expect_invalid(*l, "is used outside the block that defines it", 9);
}

TEST(IrVerifyTest, BlockReturnsMustBeVisible) {
  auto g = make_foo1();
  Node* if_node = if_of(*g);
  Block* else_b = IfView(if_node).else_block();
  // The else block returns a value of the then block.
  else_b->return_node()->replace_input(0, IfView(if_node).then_block()->outputs()[0]);
  expect_invalid(*g, "which is not visible there", 3);
}

TEST(IrVerifyTest, IfShape) {
  auto g = make_foo1();
  Node* if_node = if_of(*g);
  if_node->add_input(g->inputs()[0]);
  expect_invalid(*g, "prim::If needs 1 input (its condition), has 2", 3);

  g = make_foo1();
  if_of(*g)->add_block();
  expect_invalid(*g, "prim::If needs 2 blocks, has 3");

  g = make_foo1();
  IfView(if_of(*g)).else_block()->add_input("z");
  expect_invalid(*g, "the else block of prim::If takes inputs");

  g = make_foo1();
  IfView(if_of(*g)).then_block()->register_output(g->inputs()[0]);
  expect_invalid(*g, "the then block returns 2 value(s) but the If has 1 output(s)");

  g = make_foo1();
  Block* else_b = IfView(if_of(*g)).else_block();
  Value* bad = g->add_input("z", Type::tensor_of(DType::Float32, {3}));
  else_b->return_node()->replace_input(0, bad);
  expect_invalid(*g,
                 "output 0 of the else block does not match the If's type: Tensor[3] vs "
                 "Tensor[1, 10]");

  g = make_foo1();
  first(g->block())->output()->set_type(Type::of_str());
  expect_invalid(*g, "the condition has type str");
}

TEST(IrVerifyTest, LoopShape) {
  auto g = make_loop();
  Node* loop = g->block()->return_node()->prev();
  loop->remove_input(2);
  loop->remove_input(1);
  expect_invalid(*g, "prim::Loop needs at least 2 inputs (max trip count, condition), has 1");

  g = make_loop();
  loop = g->block()->return_node()->prev();
  LoopView(loop).body()->add_input("extra");
  expect_invalid(*g, "the loop body takes 3 input(s); it needs the trip index and 1 carried");

  g = make_loop();
  loop = g->block()->return_node()->prev();
  LoopView(loop).body()->register_output(g->inputs()[1]);
  expect_invalid(*g, "the loop body returns 3 value(s); it needs the condition and 1 carried");

  g = make_loop();
  loop = g->block()->return_node()->prev();
  loop->add_output();
  expect_invalid(*g, "prim::Loop has 2 output(s) but 1 carried value(s)");

  g = make_loop();
  loop = g->block()->return_node()->prev();
  loop->output(0)->set_type(Type::tensor_of(DType::Float32, {2, 4}));
  expect_invalid(*g, "carried value 0 changes type");

  g = make_loop();
  loop = g->block()->return_node()->prev();
  LoopView(loop).trip_index()->set_type(Type::of_float());
  expect_invalid(*g, "the trip index must be an int");

  g = make_loop();
  loop = g->block()->return_node()->prev();
  loop->add_block();
  expect_invalid(*g, "prim::Loop needs 1 body block, has 2");
}

TEST(IrVerifyTest, PrimArities) {
  auto g = make_foo1();
  g->insert(kind::Constant, {}, 1, foo1_at(8, 1));
  expect_invalid(*g, "prim::Constant has no 'value' attribute", 8);

  g = make_foo1();
  Node* c = g->insert(kind::Constant, {}, 1, foo1_at(8, 1));
  c->set_attr("value", IValue(int64_t{3}));
  c->output()->set_type(Type::of_float());
  expect_invalid(*g, "the constant's type float does not match its value (int)", 8);

  g = make_foo1();
  g->insert(kind::Guard, {g->inputs()[0]}, 0, foo1_at(8, 1));
  expect_invalid(*g, "prim::Guard has no 'seen' attribute");

  g = make_foo1();
  g->insert(kind::Guard, {g->inputs()[0]}, 1, foo1_at(8, 1))->set_attr("seen", IValue(true));
  expect_invalid(*g, "prim::Guard needs 1 input and no outputs");

  g = make_foo1();
  g->insert(kind::Print, {}, 1, foo1_at(8, 1));
  expect_invalid(*g, "prim::Print has no outputs");

  g = make_foo1();
  g->insert(kind::RaiseException, {g->inputs()[0], g->inputs()[1]}, 0, foo1_at(8, 1));
  expect_invalid(*g, "prim::RaiseException takes at most 1 input");

  g = make_foo1();
  g->insert(kind::TupleUnpack, {}, 1, foo1_at(8, 1));
  expect_invalid(*g, "prim::TupleUnpack needs 1 input");

  g = make_foo1();
  g->insert(kind::TupleIndex, {g->inputs()[0]}, 1, foo1_at(8, 1));
  expect_invalid(*g, "prim::TupleIndex needs (tuple, index) inputs and 1 output");

  g = make_foo1();
  g->insert(kind::ListConstruct, {}, 0, foo1_at(8, 1));
  expect_invalid(*g, "prim::ListConstruct needs 1 output");

  g = make_foo1();
  g->insert("aten::neg", {g->inputs()[0]}, 1, foo1_at(8, 1))->add_block();
  expect_invalid(*g, "aten::neg cannot have blocks");
}

TEST(IrVerifyTest, UseListsMustMatchInputs) {
  auto g = make_foo1();
  Value* x = g->inputs()[0];
  auto& uses = const_cast<std::vector<Use>&>(x->uses());
  uses.pop_back();
  expect_invalid(*g, "the use list of %x has");

  g = make_foo1();
  x = g->inputs()[0];
  auto& uses2 = const_cast<std::vector<Use>&>(x->uses());
  uses2.push_back(uses2.back());
  expect_invalid(*g, "the use list of %x does not match the node's inputs");

  // A node that was created with inputs but never inserted still uses them.
  g = make_foo1();
  g->create("aten::neg", {g->inputs()[0]}, 1, foo1_at(8, 1));
  expect_invalid(*g, "names a node that is not in the graph");
}

TEST(IrVerifyTest, ValuesAreDefinedOnce) {
  auto g = make_foo1();
  Node* lt = first(g->block());
  Node* neg = g->insert("aten::neg", {g->inputs()[0]}, 1, foo1_at(8, 1));
  const_cast<std::vector<Value*>&>(neg->outputs()).push_back(lt->output());
  expect_invalid(*g, "output 1's producer is recorded wrongly", 8);
}

TEST(IrVerifyTest, MessagesNameTheNode) {
  auto g = make_foo1();
  g->insert("aten::no_such_op", {g->inputs()[0]}, 0, foo1_at(8, 3));
  Error e = verify_error(*g);
  EXPECT_NE(e.message().find("in `aten::no_such_op(%x)`"), std::string::npos) << e.message();
  EXPECT_NE(e.format().find("samples/foo1.py:8:3"), std::string::npos) << e.format();
}

TEST(IrVerifyTest, LongGraphsAreFine) {
  Graph g;
  auto file = std::make_shared<const SourceFile>("m.py", "");
  Value* v = g.add_input("x", Type::tensor());
  for (int i = 0; i < 100000; ++i)
    v = g.insert("aten::neg", {v}, 1, SourceRange(file, 1, 1))->output();
  g.register_output(v);
  EXPECT_NO_THROW(verify(g));
}

}  // namespace
}  // namespace d2s::ir

namespace d2s::ir {
namespace {

TEST(IrVerifyTest, OptionalRefinement) {
  // `bias : Tensor?` refined to a Tensor by prim::unchecked_cast passes; a cast of a
  // value that is not Optional, or to another type than its element, does not.
  auto make = [](const Type& input, const Type& output) {
    auto g = std::make_unique<Graph>();
    Value* bias = g->add_input("bias", input);
    Node* cast = g->insert("prim::unchecked_cast", {bias}, 1, testing::foo1_at(2, 5));
    cast->output()->set_type(output);
    g->register_output(cast->output());
    return g;
  };
  EXPECT_NO_THROW(verify(*make(Type::optional(Type::tensor()), Type::tensor())));
  expect_invalid(*make(Type::tensor(), Type::tensor()),
                 "prim::unchecked_cast needs an Optional input, has AnyTensor", 2);
  expect_invalid(*make(Type::optional(Type::tensor()), Type::of_int()),
                 "prim::unchecked_cast gives the Optional's element type", 2);
  // `x is None` gives a bool.
  auto g = std::make_unique<Graph>();
  Value* x = g->add_input("x", Type::optional(Type::of_float()));
  Value* none = g->insert_constant(IValue(), testing::foo1_at(3, 5));
  Node* is = g->insert("aten::__is__", {x, none}, 1, testing::foo1_at(3, 5));
  is->output()->set_type(Type::of_int());
  g->register_output(is->output());
  expect_invalid(*g, "aten::__is__ gives a bool", 3);
}

}  // namespace
}  // namespace d2s::ir
