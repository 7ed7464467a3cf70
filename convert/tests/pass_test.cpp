// The passes on small graphs built through the IR API: what each changes, that it
// says so, and that a second run finds nothing left to do.
#include <gtest/gtest.h>

#include "convert/passes.h"
#include "convert/shape_rules.h"
#include "convert/tests/lower_test_util.h"
#include "core/ir/verify.h"

namespace d2s::convert {
namespace {

using ir::Dim;
using ir::Type;
using testing::count_kind;
using testing::file_check;

const SourceRange kAt(nullptr, 1, 1);

ir::Value* op(ir::Graph& g, const char* kind, const char* overload,
              const std::vector<ir::Value*>& in, Type type = Type::tensor(DType::Float32)) {
  ir::Node* n = g.insert(kind, in, 1, kAt);
  n->set_overload(overload);
  n->output()->set_type(std::move(type));
  return n->output();
}

ir::Value* cst(ir::Graph& g, IValue v) {
  return g.insert_constant(v, kAt);
}

// ---------------------------------------------------------------- constant folding

TEST(ConstantFold, ScalarArithmetic) {
  ir::Graph g;
  ir::Value* x = g.add_input("x", Type::tensor(DType::Float32));
  ir::Value* n = op(g, "aten::add", "int", {cst(g, IValue(int64_t{2})), cst(g, IValue(int64_t{3}))},
                    Type::of_int());
  ir::Value* m = op(g, "aten::mul", "int", {n, cst(g, IValue(int64_t{4}))}, Type::of_int());
  g.register_output(op(g, "aten::mul", "Tensor", {x, m}));
  EXPECT_TRUE(constant_fold(g));
  ir::verify(g);
  std::string text = ir::print_graph(g);
  EXPECT_TRUE(file_check(text, R"(
    # CHECK: int = prim::Constant[value=20]()
    # CHECK: aten::mul(%x,
    # CHECK-NOT: aten::add
  )"));
  EXPECT_FALSE(constant_fold(g));
}

TEST(ConstantFold, TensorsRandomAndErrorsStay) {
  ir::Graph g;
  // A tensor result is not folded (only scalar code is), nor is a random op, nor an
  // op that fails (its error belongs to run time).
  ir::Value* t = op(
      g, "aten::zeros", "",
      {op(g, "prim::ListConstruct", "", {cst(g, IValue(int64_t{2}))}, Type::list(Type::of_int()))});
  ir::Value* r = op(
      g, "aten::rand", "",
      {op(g, "prim::ListConstruct", "", {cst(g, IValue(int64_t{2}))}, Type::list(Type::of_int()))});
  ir::Value* bad = op(g, "aten::floor_divide", "int",
                      {cst(g, IValue(int64_t{1})), cst(g, IValue(int64_t{0}))}, Type::of_int());
  g.register_output(t);
  g.register_output(r);
  g.register_output(bad);
  EXPECT_FALSE(constant_fold(g));
  EXPECT_EQ(count_kind(g.block(), "aten::floor_divide"), 1u);
}

TEST(ConstantFold, IfOnAConstantIsInlined) {
  ir::Graph g;
  ir::Value* x = g.add_input("x", Type::tensor(DType::Float32));
  ir::Node* n = g.insert(ir::kind::If, {cst(g, IValue(false))}, 1, kAt);
  n->output()->set_type(Type::tensor(DType::Float32));
  ir::Block* a = n->add_block();
  ir::Block* b = n->add_block();
  {
    ir::WithInsertPoint guard(g, a);
    a->register_output(op(g, "aten::neg", "", {x}));
  }
  {
    ir::WithInsertPoint guard(g, b);
    b->register_output(op(g, "aten::relu", "", {x}));
  }
  g.register_output(n->output());
  EXPECT_TRUE(constant_fold(g));
  ir::verify(g);
  EXPECT_EQ(count_kind(g.block(), ir::kind::If), 0u);
  EXPECT_EQ(count_kind(g.block(), "aten::relu"), 1u);
  EXPECT_EQ(count_kind(g.block(), "aten::neg"), 0u);
  EXPECT_EQ(g.outputs()[0]->node()->kind(), "aten::relu");
}

TEST(ConstantFold, IfOutputsBothArmsAgreeOn) {
  ir::Graph g;
  ir::Value* x = g.add_input("x", Type::tensor(DType::Float32));
  ir::Value* c = g.add_input("c", Type::of_bool());
  ir::Value* t = cst(g, IValue(true));
  ir::Value* f = cst(g, IValue(false));
  ir::Node* n = g.insert(ir::kind::If, {c}, 3, kAt);
  ir::Block* a = n->add_block();
  ir::Block* b = n->add_block();
  a->register_output(x);  // the same outer value in both arms
  b->register_output(x);
  a->register_output(t);  // c ? True : False is c
  b->register_output(f);
  a->register_output(f);  // c ? False : True is not c
  b->register_output(t);
  n->output(0)->set_type(x->type());
  n->output(1)->set_type(Type::of_bool());
  n->output(2)->set_type(Type::of_bool());
  g.register_output(n->output(0));
  g.register_output(n->output(1));
  g.register_output(n->output(2));
  EXPECT_TRUE(constant_fold(g));
  ir::verify(g);
  EXPECT_EQ(g.outputs()[0], x);
  EXPECT_EQ(g.outputs()[1], c);
  EXPECT_EQ(g.outputs()[2]->node()->kind(), "aten::__not__");
  EXPECT_TRUE(eliminate_dead_code(g));
  EXPECT_EQ(count_kind(g.block(), ir::kind::If), 0u);
}

TEST(ConstantFold, LoopThatNeverRunsAndTuples) {
  ir::Graph g;
  ir::Value* x = g.add_input("x", Type::tensor(DType::Float32));
  ir::Node* loop =
      g.insert(ir::kind::Loop, {cst(g, IValue(int64_t{0})), cst(g, IValue(true)), x}, 1, kAt);
  ir::Block* body = loop->add_block();
  body->add_input()->set_type(Type::of_int());
  ir::Value* carried = body->add_input("x");
  carried->set_type(x->type());
  {
    ir::WithInsertPoint guard(g, body);
    body->register_output(cst(g, IValue(true)));
    body->register_output(op(g, "aten::neg", "", {carried}));
  }
  loop->output()->set_type(x->type());
  ir::Node* tup = g.insert(ir::kind::TupleConstruct, {loop->output(), x}, 1, kAt);
  tup->output()->set_type(Type::tuple({x->type(), x->type()}));
  ir::Node* unpack = g.insert(ir::kind::TupleUnpack, {tup->output()}, 2, kAt);
  g.register_output(unpack->output(0));
  EXPECT_TRUE(constant_fold(g));
  ir::verify(g);
  EXPECT_EQ(g.outputs()[0], x);
  EXPECT_EQ(count_kind(g.block(), ir::kind::Loop), 0u);
  EXPECT_EQ(count_kind(g.block(), ir::kind::TupleUnpack), 0u);
  EXPECT_FALSE(constant_fold(g));
}

TEST(ConstantFold, EvaluateNode) {
  ir::Graph g;
  ir::Value* v = op(g, "aten::format", "",
                    {cst(g, IValue("{} and {}")), cst(g, IValue(int64_t{1})), cst(g, IValue(2.5))},
                    Type::of_str());
  auto out = evaluate_node(*v->node(), {IValue("{} and {}"), IValue(int64_t{1}), IValue(2.5)});
  ASSERT_TRUE(out);
  EXPECT_EQ((*out)[0].to_string(), "1 and 2.5");
}

// ---------------------------------------------------------------- dead code

TEST(DeadCode, UnusedPureNodesGoSideEffectsStay) {
  ir::Graph g;
  ir::Value* x = g.add_input("x", Type::tensor(DType::Float32));
  op(g, "aten::neg", "", {x});             // unused: removed
  g.insert(ir::kind::Print, {x}, 0, kAt);  // kept
  op(g, "aten::rand", "",
     {op(g, "prim::ListConstruct", "", {cst(g, IValue(int64_t{2}))},
         Type::list(Type::of_int()))});  // random: kept
  g.register_output(x);
  EXPECT_TRUE(eliminate_dead_code(g));
  ir::verify(g);
  EXPECT_EQ(count_kind(g.block(), "aten::neg"), 0u);
  EXPECT_EQ(count_kind(g.block(), ir::kind::Print), 1u);
  EXPECT_EQ(count_kind(g.block(), "aten::rand"), 1u);
  EXPECT_FALSE(eliminate_dead_code(g));
}

TEST(DeadCode, IfOutputsAndWholeIfs) {
  ir::Graph g;
  ir::Value* x = g.add_input("x", Type::tensor(DType::Float32));
  ir::Value* c = g.add_input("c", Type::of_bool());
  ir::Node* n = g.insert(ir::kind::If, {c}, 2, kAt);
  ir::Block* a = n->add_block();
  ir::Block* b = n->add_block();
  {
    ir::WithInsertPoint guard(g, a);
    a->register_output(op(g, "aten::neg", "", {x}));
    a->register_output(op(g, "aten::relu", "", {x}));
  }
  {
    ir::WithInsertPoint guard(g, b);
    b->register_output(x);
    b->register_output(x);
  }
  g.register_output(n->output(1));
  EXPECT_TRUE(eliminate_dead_code(g));
  ir::verify(g);
  EXPECT_EQ(n->outputs().size(), 1u);
  EXPECT_EQ(count_kind(g.block(), "aten::neg"), 0u);
  // An If whose results nobody reads and that prints nothing goes entirely.
  g.block()->return_node()->remove_input(0);
  EXPECT_TRUE(eliminate_dead_code(g));
  EXPECT_EQ(count_kind(g.block(), ir::kind::If), 0u);
  // ... unless an arm prints.
  ir::Node* m = g.insert(ir::kind::If, {c}, 0, kAt);
  m->add_block();
  ir::Block* printing = m->add_block();
  {
    ir::WithInsertPoint guard(g, printing);
    g.insert(ir::kind::Print, {x}, 0, kAt);
  }
  EXPECT_FALSE(eliminate_dead_code(g));
  EXPECT_EQ(count_kind(g.block(), ir::kind::If), 1u);
}

TEST(DeadCode, LoopCarriedValuesNobodyReads) {
  ir::Graph g;
  ir::Value* x = g.add_input("x", Type::tensor(DType::Float32));
  ir::Value* n = g.add_input("n", Type::of_int());
  ir::Node* loop = g.insert(ir::kind::Loop, {n, cst(g, IValue(true)), x, x}, 2, kAt);
  ir::Block* body = loop->add_block();
  body->add_input()->set_type(Type::of_int());
  ir::Value* a = body->add_input("a");
  ir::Value* b = body->add_input("b");
  a->set_type(x->type());
  b->set_type(x->type());
  {
    ir::WithInsertPoint guard(g, body);
    body->register_output(cst(g, IValue(true)));
    body->register_output(op(g, "aten::neg", "", {a}));   // a: read after the loop
    body->register_output(op(g, "aten::relu", "", {b}));  // b: only feeds itself
  }
  loop->output(0)->set_type(x->type());
  loop->output(1)->set_type(x->type());
  g.register_output(loop->output(0));
  EXPECT_TRUE(eliminate_dead_code(g));
  ir::verify(g);
  EXPECT_EQ(loop->outputs().size(), 1u);
  EXPECT_EQ(loop->inputs().size(), 3u);
  EXPECT_EQ(body->inputs().size(), 2u);
  EXPECT_EQ(count_kind(g.block(), "aten::relu"), 0u);
  EXPECT_FALSE(eliminate_dead_code(g));
}

// ---------------------------------------------------------------- shapes

Type tensor(std::vector<Dim> dims, DType d = DType::Float32) {
  return Type::tensor(d, dims);
}

TEST(ShapeInference, SymbolsFlowThroughOps) {
  ir::Graph g;
  ir::Value* x = g.add_input("x", tensor({Dim::symbolic("B"), Dim::known(3)}));
  ir::Value* w = g.add_input("w", tensor({Dim::known(3), Dim::known(4)}));
  ir::Value* y = op(g, "aten::mm", "", {x, w});
  ir::Value* z = op(g, "aten::add", "Tensor", {y, cst(g, IValue(1.0))});
  ir::Value* s = op(
      g, "aten::sum", "dim_IntList",
      {z,
       op(g, "prim::ListConstruct", "", {cst(g, IValue(int64_t{1}))}, Type::list(Type::of_int())),
       cst(g, IValue(true))});
  ir::Value* b = op(g, "aten::size", "int", {x, cst(g, IValue(int64_t{0}))}, Type::of_int());
  ir::Value* v = op(g, "aten::view", "",
                    {z, op(g, "prim::ListConstruct", "", {cst(g, IValue(int64_t{-1})), b},
                           Type::list(Type::of_int()))});
  ir::Value* c = op(g, "aten::gt", "Tensor", {z, cst(g, IValue(int64_t{0}))});
  ir::Value* am = op(g, "aten::argmax", "", {z, cst(g, IValue(int64_t{1}))});
  for (ir::Value* out : {y, z, s, v, c, am}) g.register_output(out);
  EXPECT_TRUE(infer_shapes(g));
  EXPECT_EQ(y->type().str(), "Tensor[B, 4]");
  EXPECT_EQ(z->type().str(), "Tensor[B, 4]");
  EXPECT_EQ(s->type().str(), "Tensor[B, 1]");
  EXPECT_EQ(v->type().str(), "Tensor[4, B]");  // -1 = B*4 / B
  EXPECT_EQ(c->type().str(), "Bool[B, 4]");
  EXPECT_EQ(am->type().str(), "Long[B]");
  EXPECT_FALSE(infer_shapes(g));
}

TEST(ShapeInference, Broadcasting) {
  auto d = [](const char* s) { return Dim::symbolic(s); };
  auto k = [](int64_t n) { return Dim::known(n); };
  EXPECT_EQ(tensor(broadcast_dims({d("B"), k(1)}, {k(4)})).str(), "Tensor[B, 4]");
  EXPECT_EQ(tensor(broadcast_dims({d("B"), k(4)}, {d("B"), k(4)})).str(), "Tensor[B, 4]");
  EXPECT_EQ(tensor(broadcast_dims({d("B")}, {k(5)})).str(), "Tensor[5]");
  EXPECT_EQ(tensor(broadcast_dims({d("B")}, {d("C")})).str(), "Tensor[*]");
  EXPECT_EQ(tensor(broadcast_dims({k(1), k(2)}, {k(3), k(1)})).str(), "Tensor[3, 2]");
}

TEST(ShapeInference, IfJoinsAndLoopsReachAFixpoint) {
  ir::Graph g;
  ir::Value* x = g.add_input("x", tensor({Dim::symbolic("B"), Dim::known(3)}));
  ir::Value* c = g.add_input("c", Type::of_bool());
  ir::Node* n = g.insert(ir::kind::If, {c}, 1, kAt);
  ir::Block* a = n->add_block();
  ir::Block* b = n->add_block();
  {
    ir::WithInsertPoint guard(g, a);
    a->register_output(op(g, "aten::relu", "", {x}));
  }
  {
    ir::WithInsertPoint guard(g, b);
    b->register_output(op(g, "aten::t", "", {x}));
  }
  n->output()->set_type(Type::tensor());
  // A loop that grows its carried tensor: cat along dim 0.
  ir::Node* loop =
      g.insert(ir::kind::Loop, {cst(g, IValue(int64_t{3})), cst(g, IValue(true)), x}, 1, kAt);
  ir::Block* body = loop->add_block();
  body->add_input()->set_type(Type::of_int());
  ir::Value* h = body->add_input("h");
  h->set_type(x->type());
  {
    ir::WithInsertPoint guard(g, body);
    body->register_output(cst(g, IValue(true)));
    ir::Value* list = op(g, "prim::ListConstruct", "", {h, x}, Type::list(Type::tensor()));
    body->register_output(op(g, "aten::cat", "", {list}));
  }
  loop->output()->set_type(Type::tensor());
  g.register_output(n->output());
  g.register_output(loop->output());
  EXPECT_TRUE(infer_shapes(g));
  EXPECT_EQ(n->output()->type().str(), "Tensor[*, *]");  // [B, 3] joined with [3, B]
  EXPECT_EQ(loop->output()->type().str(), "Tensor[*, 3]");
  EXPECT_EQ(h->type().str(), "Tensor[*, 3]");
  EXPECT_FALSE(infer_shapes(g));
}

TEST(ShapeInference, CreationAndShapeOps) {
  ir::Graph g;
  ir::Value* x = g.add_input("x", tensor({Dim::symbolic("N"), Dim::known(2), Dim::known(5)}));
  auto ints = [&](std::vector<int64_t> v) {
    std::vector<ir::Value*> items;
    for (int64_t i : v) items.push_back(cst(g, IValue(i)));
    return op(g, "prim::ListConstruct", "", items, Type::list(Type::of_int()));
  };
  ir::Value* z = op(g, "aten::zeros", "", {ints({2, 3})});
  ir::Value* f = op(g, "aten::flatten", "using_ints", {x, cst(g, IValue(int64_t{1}))});
  ir::Value* u = op(g, "aten::unsqueeze", "", {x, cst(g, IValue(int64_t{-1}))});
  ir::Value* sel =
      op(g, "aten::select", "int", {x, cst(g, IValue(int64_t{1})), cst(g, IValue(int64_t{0}))});
  ir::Value* sl = op(g, "aten::slice", "Tensor",
                     {x, cst(g, IValue(int64_t{2})), cst(g, IValue(int64_t{1})), cst(g, IValue())});
  ir::Value* tr =
      op(g, "aten::transpose", "int", {x, cst(g, IValue(int64_t{0})), cst(g, IValue(int64_t{2}))});
  ir::Value* st = op(g, "aten::stack", "",
                     {op(g, "prim::ListConstruct", "", {x, x}, Type::list(Type::tensor()))});
  ir::Value* ar = op(g, "aten::arange", "", {cst(g, IValue(int64_t{7}))});
  for (ir::Value* out : {z, f, u, sel, sl, tr, st, ar}) g.register_output(out);
  EXPECT_TRUE(infer_shapes(g));
  EXPECT_EQ(z->type().str(), "Tensor[2, 3]");
  EXPECT_EQ(f->type().str(), "Tensor[N, 10]");
  EXPECT_EQ(u->type().str(), "Tensor[N, 2, 5, 1]");
  EXPECT_EQ(sel->type().str(), "Tensor[N, 5]");
  EXPECT_EQ(sl->type().str(), "Tensor[N, 2, 4]");
  EXPECT_EQ(tr->type().str(), "Tensor[5, 2, N]");
  EXPECT_EQ(st->type().str(), "Tensor[2, N, 2, 5]");
  EXPECT_EQ(ar->type().str(), "Long[7]");
}

}  // namespace
}  // namespace d2s::convert
