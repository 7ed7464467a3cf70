// Graphs the IR tests share: foo1 (an If) and a loop, built through the API.
#pragma once

#include <limits>
#include <memory>

#include "core/ir/ir.h"

namespace d2s::ir::testing {

inline std::shared_ptr<const SourceFile> foo1_source() {
  static auto file = std::make_shared<const SourceFile>("samples/foo1.py",
                                                        "def foo1(x, y):\n"
                                                        "  s = x\n"
                                                        "  if x < y:\n"
                                                        "    s = x + y\n"
                                                        "  else:\n"
                                                        "    s = y\n"
                                                        "  print(s)\n"
                                                        "  return s\n");
  return file;
}

inline SourceRange foo1_at(int line, int col, int len = 1) {
  return SourceRange(foo1_source(), line, col, len);
}

// def foo1(x, y):  if x < y: s = x + y  else: s = y;  print(s); return s
inline std::unique_ptr<Graph> make_foo1() {
  auto g = std::make_unique<Graph>();
  g->route = "parse";
  g->entry = "foo1";
  g->source = foo1_source();
  Type t = Type::tensor_of(DType::Float32, {1, 10});
  Value* x = g->add_input("x", t);
  Value* y = g->add_input("y", t);
  Node* lt = g->insert("aten::lt", {x, y}, 1, foo1_at(3, 6, 5));
  lt->output()->set_type(Type::tensor_of(DType::Bool, {}));
  Node* if_node = g->insert(kind::If, {lt->output()}, 1, foo1_at(3, 3, 2));
  if_node->output()->set_type(t);
  if_node->output()->set_debug_name("s");
  Block* then_b = if_node->add_block();
  Block* else_b = if_node->add_block();
  {
    WithInsertPoint guard(*g, then_b);
    Value* one = g->insert_constant(IValue(int64_t{1}), foo1_at(4, 9, 5));
    Node* add = g->insert("aten::add", {x, y, one}, 1, foo1_at(4, 9, 5));
    add->output()->set_type(t);
    add->output()->set_debug_name("s");
    then_b->register_output(add->output());
  }
  else_b->register_output(y);
  g->insert(kind::Print, {if_node->output()}, 0, foo1_at(7, 3, 8));
  g->register_output(if_node->output());
  return g;
}

// for i in range(n): h = tanh(h) + i   (n an input; a carried h)
inline std::unique_ptr<Graph> make_loop(bool as_while = false) {
  auto file = std::make_shared<const SourceFile>("rnn.py", "");
  auto at = [&](int line, int col) { return SourceRange(file, line, col); };
  auto g = std::make_unique<Graph>();
  g->route = "parse";
  g->entry = "rnn";
  Type t = Type::tensor_of(DType::Float32, {1, 4});
  Value* n = g->add_input("n", Type::of_int());
  Value* h = g->add_input("h", t);
  Value* max_trip = n;
  Value* cond = nullptr;
  if (as_while) {
    // while k < n: (max trip count INT64_MAX, the condition carried through the body)
    max_trip = g->insert_constant(IValue(std::numeric_limits<int64_t>::max()), at(2, 3));
    Value* zero = g->insert_constant(IValue(int64_t{0}), at(2, 3));
    Node* lt = g->insert("aten::lt", {zero, n}, 1, at(2, 9));
    lt->output()->set_type(Type::of_bool());
    cond = lt->output();
  } else {
    cond = g->insert_constant(IValue(true), at(2, 3));
  }
  std::vector<Value*> carried{h};
  Value* k0 = nullptr;
  if (as_while) {
    k0 = g->insert_constant(IValue(int64_t{0}), at(2, 3));
    carried.push_back(k0);
  }
  std::vector<Value*> inputs{max_trip, cond};
  inputs.insert(inputs.end(), carried.begin(), carried.end());
  Node* loop = g->insert(kind::Loop, inputs, carried.size(), at(2, 3));
  loop->output(0)->set_type(t);
  loop->output(0)->set_debug_name("h");
  Block* body = loop->add_block();
  Value* i = body->add_input("i");
  i->set_type(Type::of_int());
  Value* h_in = body->add_input("h");
  h_in->set_type(t);
  Value* k_in = nullptr;
  if (as_while) {
    k_in = body->add_input("k");
    k_in->set_type(Type::of_int());
    loop->output(1)->set_type(Type::of_int());
    loop->output(1)->set_debug_name("k");
  }
  {
    WithInsertPoint guard(*g, body);
    Node* tanh = g->insert("aten::tanh", {h_in}, 1, at(3, 9));
    tanh->output()->set_type(t);
    Value* step = as_while ? k_in : i;
    Node* add = g->insert("aten::add", {tanh->output(), step}, 1, at(3, 9));
    add->output()->set_type(t);
    add->output()->set_debug_name("h");
    if (as_while) {
      Value* one = g->insert_constant(IValue(int64_t{1}), at(4, 10));
      Node* inc = g->insert("aten::add", {k_in, one}, 1, at(4, 5));
      inc->output()->set_type(Type::of_int());
      inc->output()->set_debug_name("k");
      Node* again = g->insert("aten::lt", {inc->output(), n}, 1, at(2, 9));
      again->output()->set_type(Type::of_bool());
      body->register_output(again->output());
      body->register_output(add->output());
      body->register_output(inc->output());
    } else {
      body->register_output(cond);
      body->register_output(add->output());
    }
  }
  g->register_output(loop->output(0));
  return g;
}

}  // namespace d2s::ir::testing
