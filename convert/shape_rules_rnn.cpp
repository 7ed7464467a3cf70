// Shape rules of aten::embedding (the indices' dims, then the weight's second) and of
// the recurrent ops and cells (core/ops/kernels_rnn.cpp): a sequence op's output keeps the
// input's time and batch dims (symbols included) with directions * hidden features; its
// states have the shape of the given states; a cell's states that of its hx.
#include "convert/shape_rules_util.h"

namespace d2s::convert::shape_detail {

namespace {

// The type of argument i, or of item `item` of it when it is a list built in the graph.
const Type* item_type(const ir::Node& n, size_t i, std::optional<size_t> item) {
  if (i >= n.inputs().size()) return nullptr;
  const ir::Value* v = n.input(i);
  if (!item) return &v->type();
  if (!ir::is_unchanged_list(*v) || *item >= v->node()->inputs().size()) return nullptr;
  return &v->node()->input(*item)->type();
}

Type float_of(const Type* t) {
  return tensor(DType::Float32, t && t->is_tensor() ? t->shape : std::nullopt);
}

// A cell's states: h' (and c' for an LSTM cell) of hx's shape.
template <bool kLstm>
std::optional<std::vector<Type>> cell(const ir::Node& n) {
  std::vector<Type> outs{
      float_of(item_type(n, 1, kLstm ? std::optional<size_t>(0) : std::nullopt))};
  if (kLstm) outs.push_back(float_of(item_type(n, 1, 1)));
  return outs;
}

// A sequence op: (output, h_n) and c_n for an LSTM.
template <bool kLstm>
std::optional<std::vector<Type>> sequence(const Args& a, const ir::Node& n) {
  const Type* h = item_type(n, 1, kLstm ? std::optional<size_t>(0) : std::nullopt);
  const Dims* x = a.shape(0);
  std::optional<Dims> out;
  const std::optional<bool> bidirectional = a.bool_at(7);
  // The hidden size: w_hh's second dim (params[1]), else the state's last.
  const Type* w_hh = item_type(n, 2, 1);
  Dim hidden;
  if (w_hh && w_hh->is_tensor() && w_hh->shape && w_hh->shape->size() == 2) {
    hidden = (*w_hh->shape)[1];
  } else if (h && h->is_tensor() && h->shape && h->shape->size() == 3) {
    hidden = (*h->shape)[2];
  }
  if (x && x->size() == 3 && bidirectional) {
    out = Dims{(*x)[0], (*x)[1],
               hidden.is_known() ? Dim::known(hidden.size * (*bidirectional ? 2 : 1)) : Dim{}};
  }
  std::vector<Type> outs{tensor(DType::Float32, out), float_of(h)};
  if (kLstm) outs.push_back(float_of(item_type(n, 1, 1)));
  return outs;
}

}  // namespace

void add_recurrent_rules(RuleTable& t) {
  t.add({"aten::embedding"}, [](const Args& a, const ir::Node&) {
    const Dims* w = a.shape(0);
    const Dims* idx = a.shape(1);
    std::optional<Dims> out;
    if (w && w->size() == 2 && idx) {
      out = *idx;
      out->push_back((*w)[1]);
    }
    return one(tensor(a.type(0).dtype, out));
  });
  t.add({"aten::lstm_cell"}, [](const Args&, const ir::Node& n) { return cell<true>(n); });
  t.add({"aten::gru_cell", "aten::rnn_tanh_cell", "aten::rnn_relu_cell"},
        [](const Args&, const ir::Node& n) { return cell<false>(n); });
  t.add({"aten::lstm"}, [](const Args& a, const ir::Node& n) { return sequence<true>(a, n); });
  t.add({"aten::gru", "aten::rnn_tanh", "aten::rnn_relu"},
        [](const Args& a, const ir::Node& n) { return sequence<false>(a, n); });
}

}  // namespace d2s::convert::shape_detail
