// The graph IR built through its API: uses, rewriting, destruction, insertion
// points, views, types.
#include "core/ir/ir.h"

#include <gtest/gtest.h>

#include "core/base/error.h"

namespace d2s::ir {
namespace {

SourceRange at(int line, int col = 1) {
  static auto file = std::make_shared<const SourceFile>("m.py", "");
  return SourceRange(file, line, col);
}

std::vector<std::string> kinds(const Block* b) {
  std::vector<std::string> out;
  for (Node* n : b->nodes()) out.push_back(n->kind());
  return out;
}

TEST(IrTest, BuildsNodesAndTracksUses) {
  Graph g;
  Value* x = g.add_input("x", Type::tensor(DType::Float32, std::vector<Dim>{Dim::known(2)}));
  Value* y = g.add_input("y", Type::tensor());
  Node* add = g.insert("aten::add", {x, y, x}, 1, at(1));
  g.register_output(add->output());

  EXPECT_EQ(g.inputs().size(), 2u);
  EXPECT_EQ(x->uses().size(), 2u);
  EXPECT_EQ(x->uses()[0], (Use{add, 0}));
  EXPECT_EQ(x->uses()[1], (Use{add, 2}));
  EXPECT_EQ(y->uses()[0], (Use{add, 1}));
  ASSERT_EQ(add->output()->uses().size(), 1u);
  EXPECT_EQ(add->output()->uses()[0].user, g.block()->return_node());
  EXPECT_EQ(add->owning_block(), g.block());
  EXPECT_EQ(add->owning_graph(), &g);
  EXPECT_EQ(add->output()->node(), add);
  EXPECT_EQ(x->node(), g.block()->param_node());
  EXPECT_TRUE(g.block()->param_node()->is_sentinel());
  EXPECT_FALSE(add->is_sentinel());
  EXPECT_EQ(g.node_count(), 1u);
}

TEST(IrTest, ReplaceAllUsesWithRedirectsEveryUse) {
  Graph g;
  Value* x = g.add_input("x", Type::tensor());
  Value* y = g.add_input("y", Type::tensor());
  Node* a = g.insert("aten::neg", {x}, 1, at(1));
  Node* b = g.insert("aten::mul", {x, a->output()}, 1, at(2));
  g.register_output(x);
  x->replace_all_uses_with(y);
  EXPECT_FALSE(x->has_uses());
  EXPECT_EQ(a->input(0), y);
  EXPECT_EQ(b->input(0), y);
  EXPECT_EQ(g.outputs()[0], y);
  EXPECT_EQ(y->uses().size(), 3u);
  for (const Use& u : y->uses()) EXPECT_EQ(u.user->inputs()[u.offset], y);
}

TEST(IrTest, ReplaceAndRemoveInputsKeepUseOffsets) {
  Graph g;
  Value* x = g.add_input("x", Type::any());
  Value* y = g.add_input("y", Type::any());
  Value* z = g.add_input("z", Type::any());
  Node* n = g.insert(kind::Print, {x, y, z}, 0, at(1));
  n->remove_input(0);
  EXPECT_FALSE(x->has_uses());
  EXPECT_EQ(y->uses()[0], (Use{n, 0}));
  EXPECT_EQ(z->uses()[0], (Use{n, 1}));
  n->replace_input(1, x);
  EXPECT_FALSE(z->has_uses());
  EXPECT_EQ(x->uses()[0], (Use{n, 1}));
  n->remove_all_inputs();
  EXPECT_FALSE(x->has_uses());
  EXPECT_FALSE(y->has_uses());
  EXPECT_TRUE(n->inputs().empty());
}

TEST(IrTest, AttributesAreAnOrderedMap) {
  Graph g;
  Node* n = g.insert(kind::Guard, {}, 0, at(1));
  EXPECT_EQ(n->attr("seen"), nullptr);
  n->set_attr("seen", IValue(true));
  n->set_attr("expr", IValue("x > 0"));
  n->set_attr("seen", IValue(false));
  ASSERT_EQ(n->attrs().size(), 2u);
  EXPECT_EQ(n->attrs()[0].first, "seen");
  EXPECT_FALSE(n->attr("seen")->to_bool());
  EXPECT_EQ(n->attr("expr")->to_string(), "x > 0");
}

TEST(IrTest, OutputsCanBeAddedAndErased) {
  Graph g;
  Node* n = g.insert("aten::max", {}, 2, at(1));
  Value* third = n->add_output();
  EXPECT_EQ(third->offset(), 2u);
  n->erase_output(0);
  EXPECT_EQ(n->outputs().size(), 2u);
  EXPECT_EQ(third->offset(), 1u);
  g.register_output(third);
  EXPECT_THROW(n->erase_output(1), Error);  // still used
}

TEST(IrTest, DestroyUnlinksAndDropsUses) {
  Graph g;
  Value* x = g.add_input("x", Type::tensor());
  Node* a = g.insert("aten::neg", {x}, 1, at(1));
  Node* b = g.insert("aten::relu", {a->output()}, 1, at(2));
  g.register_output(b->output());
  EXPECT_THROW(a->destroy(), Error);  // its output is used by b
  EXPECT_EQ(kinds(g.block()), (std::vector<std::string>{"aten::neg", "aten::relu"}));

  b->output()->replace_all_uses_with(x);
  b->destroy();
  a->destroy();
  EXPECT_TRUE(g.block()->empty());
  EXPECT_EQ(x->uses().size(), 1u);  // only the graph's return
  // a and b are freed (a pointer to them must not be used now): only the top block's
  // sentinels are left.
  EXPECT_EQ(g.live_nodes(), 2u);
  EXPECT_EQ(g.node_count(), 0u);
}

TEST(IrTest, DestroyTearsDownNestedBlocks) {
  Graph g;
  Value* c = g.add_input("c", Type::of_bool());
  Value* x = g.add_input("x", Type::tensor());
  Node* if_node = g.insert(kind::If, {c}, 1, at(1));
  IfView view(if_node);
  Block* then_b = if_node->add_block();
  Block* else_b = if_node->add_block();
  {
    WithInsertPoint guard(g, then_b);
    Node* neg = g.insert("aten::neg", {x}, 1, at(2));
    then_b->register_output(neg->output());
  }
  else_b->register_output(x);
  EXPECT_EQ(view.then_block(), then_b);
  EXPECT_EQ(view.else_block(), else_b);
  EXPECT_EQ(view.cond(), c);
  EXPECT_EQ(x->uses().size(), 2u);
  EXPECT_EQ(g.node_count(), 2u);
  if_node->destroy();
  EXPECT_FALSE(x->has_uses());
  EXPECT_FALSE(c->has_uses());
  EXPECT_EQ(g.node_count(), 0u);
  EXPECT_EQ(g.insert_point(), g.block()->return_node());
}

TEST(IrTest, InsertionPointsAndMoves) {
  Graph g;
  Node* a = g.insert("aten::a", {}, 0, at(1));
  Node* c = g.insert("aten::c", {}, 0, at(3));
  {
    WithInsertPoint guard(g, c);
    g.insert("aten::b", {}, 0, at(2));
  }
  EXPECT_EQ(g.insert_point(), g.block()->return_node());
  g.insert("aten::d", {}, 0, at(4));
  EXPECT_EQ(kinds(g.block()),
            (std::vector<std::string>{"aten::a", "aten::b", "aten::c", "aten::d"}));

  Node* e = g.create("aten::e", {}, 0, at(5));
  EXPECT_FALSE(e->in_block_list());
  e->insert_after(a);
  Node* f = g.create("aten::f", {}, 0, at(6));
  f->insert_before(a);
  c->move_before(f);
  EXPECT_EQ(kinds(g.block()), (std::vector<std::string>{"aten::c", "aten::f", "aten::a", "aten::e",
                                                        "aten::b", "aten::d"}));
  EXPECT_THROW(e->insert_before(c), Error);  // already linked
  EXPECT_THROW(g.block()->param_node()->destroy(), Error);
}

TEST(IrTest, IterationSurvivesDestroyingTheCurrentNode) {
  Graph g;
  for (int i = 0; i < 5; ++i) g.insert("aten::zeros", {}, 1, at(i + 1));
  for (Node* n : g.block()->nodes()) n->destroy();
  EXPECT_TRUE(g.block()->empty());
}

TEST(IrTest, LoopViewNamesThePositions) {
  Graph g;
  Value* n = g.insert_constant(IValue(int64_t{3}), at(1));
  Value* t = g.insert_constant(IValue(true), at(1));
  Value* h = g.add_input("h", Type::tensor());
  Node* loop = g.insert(kind::Loop, {n, t, h}, 1, at(2));
  Block* body = loop->add_block();
  Value* i = body->add_input("i");
  Value* h_in = body->add_input("h");
  body->register_output(t);
  body->register_output(h_in);
  LoopView view(loop);
  EXPECT_EQ(view.max_trip_count(), n);
  EXPECT_EQ(view.initial_cond(), t);
  EXPECT_EQ(view.carried_inputs(), std::vector<Value*>{h});
  EXPECT_EQ(view.body(), body);
  EXPECT_EQ(view.trip_index(), i);
  EXPECT_EQ(view.body_carried_inputs(), std::vector<Value*>{h_in});
  EXPECT_EQ(view.body_cond(), t);
  EXPECT_EQ(view.body_carried_outputs(), std::vector<Value*>{h_in});
  EXPECT_EQ(i->debug_name(), "i");
  EXPECT_EQ(n->type(), Type::of_int());
  EXPECT_EQ(t->type(), Type::of_bool());
}

TEST(IrTest, DestroyingALongChainIsLinear) {
  Graph g;
  Value* v = g.add_input("x", Type::tensor());
  Value* one = g.insert_constant(IValue(int64_t{1}), at(1));
  for (int i = 0; i < 100000; ++i) v = g.insert("aten::add", {v, one}, 1, at(2))->output();
  EXPECT_EQ(one->uses().size(), 100000u);
  EXPECT_EQ(g.node_count(), 100001u);
  // Last node first, as dead-code elimination does.
  for (Node* n = g.block()->return_node()->prev(); n != g.block()->param_node();) {
    Node* prev = n->prev();
    n->destroy();
    n = prev;
  }
  EXPECT_EQ(g.node_count(), 0u);
}

TEST(IrTypesTest, StrAndParseRoundTrip) {
  std::vector<Type> types = {
      Type::any(),
      Type::of_int(),
      Type::of_float(),
      Type::of_bool(),
      Type::none(),
      Type::of_str(),
      Type::tensor(),
      Type::tensor(DType::Float32),
      Type::tensor_of(DType::Float32, {1, 20}),
      Type::tensor_of(DType::Int64, {3}),
      Type::tensor_of(DType::Bool, {}),
      Type::tensor(DType::Float32, std::vector<Dim>{Dim::symbolic("B"), Dim::known(20), Dim{}}),
      Type::tuple({Type::of_int(), Type::tensor(DType::Float32)}),
      Type::tuple({}),
      Type::tuple({Type::of_int()}),
      Type::list(Type::of_int()),
      Type::list(Type::tensor(DType::Float32)),
      Type::list(Type::list(Type::tensor_of(DType::Bool, {2}))),
      Type::list(Type::tuple({Type::of_int(), Type::of_int()})),
      Type::optional(Type::tensor_of(DType::Float32, {3})),
      Type::optional(Type::of_float()),
      Type::list(Type::optional(Type::tensor(DType::Float32))),
  };
  for (const Type& t : types) {
    auto back = Type::parse(t.str());
    ASSERT_TRUE(back.has_value()) << t.str();
    EXPECT_EQ(*back, t) << t.str();
  }
  EXPECT_EQ(Type::tensor_of(DType::Float32, {1, 20}).str(), "Tensor[1, 20]");
  EXPECT_EQ(
      Type::tensor(DType::Float32, std::vector<Dim>{Dim::symbolic("B"), Dim::known(20)}).str(),
      "Tensor[B, 20]");
  EXPECT_EQ(Type::tensor(DType::Float32).str(), "Tensor");
  EXPECT_EQ(Type::optional(Type::tensor(DType::Float32)).str(), "Tensor?");
  EXPECT_EQ(Type::list(Type::optional(Type::of_int())).str(), "int?[]");
  EXPECT_EQ(Type::tensor().str(), "AnyTensor");
  EXPECT_EQ(Type::tensor_of(DType::Int64, {3}).str(), "Long[3]");
  EXPECT_EQ(Type::tensor_of(DType::Bool, {}).str(), "Bool[]");
  EXPECT_EQ(Type::tuple({Type::of_int(), Type::tensor(DType::Float32)}).str(), "(int, Tensor)");
  EXPECT_EQ(Type::list(Type::of_int()).str(), "int[]");
  EXPECT_EQ(Type::list(Type::tensor(DType::Float32)).str(), "List[Tensor]");
  EXPECT_EQ(Type::none().str(), "NoneType");
}

TEST(IrTypesTest, ParseRejectsMalformedText) {
  for (const char* bad :
       {"", "Tensor[", "Tensor[1,", "Tensor[-1]", "tensor", "(int", "int[", "List[int",
        "Tensor[1]]", "int int", "Long[1][]", "Tensor[1.5]", "Tensor??", "?"}) {
    EXPECT_FALSE(Type::parse(bad).has_value()) << bad;
  }
  std::string deep(10000, '(');
  EXPECT_FALSE(Type::parse(deep).has_value());
  EXPECT_TRUE(Type::parse("Tensor[ 1 , B ]").has_value());
}

TEST(IrTypesTest, CompatibilityIgnoresWhatIsUnknown) {
  Type t120 = Type::tensor_of(DType::Float32, {1, 20});
  EXPECT_TRUE(types_compatible(t120, Type::tensor()));
  EXPECT_TRUE(types_compatible(t120, Type::any()));
  EXPECT_TRUE(types_compatible(
      t120, Type::tensor(DType::Float32, std::vector<Dim>{Dim::symbolic("B"), Dim::known(20)})));
  EXPECT_FALSE(types_compatible(t120, Type::tensor_of(DType::Float32, {2, 20})));
  EXPECT_FALSE(types_compatible(t120, Type::tensor_of(DType::Int64, {1, 20})));
  // An Optional holds None or its element's values.
  EXPECT_TRUE(types_compatible(Type::optional(t120), Type::none()));
  EXPECT_TRUE(types_compatible(t120, Type::optional(Type::tensor())));
  EXPECT_FALSE(types_compatible(Type::optional(t120), Type::of_int()));
  EXPECT_FALSE(types_compatible(t120, Type::tensor_of(DType::Float32, {20})));
  EXPECT_FALSE(types_compatible(Type::of_int(), Type::of_float()));
  EXPECT_TRUE(types_compatible(Type::list(Type::any()), Type::list(Type::of_int())));
  EXPECT_FALSE(types_compatible(Type::tuple({Type::of_int()}), Type::tuple({})));
}

TEST(IrTypesTest, TypeOfValues) {
  EXPECT_EQ(type_of(IValue()), Type::none());
  EXPECT_EQ(type_of(IValue(1.5)), Type::of_float());
  EXPECT_EQ(type_of(IValue("s")), Type::of_str());
  EXPECT_EQ(type_of(IValue::int_list({1, 2})), Type::list(Type::of_int()));
  EXPECT_EQ(type_of(IValue(Tensor::zeros({2, 3}))), Type::tensor_of(DType::Float32, {2, 3}));
  EXPECT_EQ(type_of(IValue::tuple({IValue(1), IValue(true)})),
            Type::tuple({Type::of_int(), Type::of_bool()}));
}

}  // namespace
}  // namespace d2s::ir
