// The ONNX mapping of aten::embedding: Gather of the weight's rows (axis 0) by the
// indices. The recurrent ops (aten::lstm, gru, rnn_tanh, rnn_relu and their cells) have
// no mapping yet: ONNX's LSTM/GRU/RNN take the gates in another order (i, o, f, c),
// stacked directions and one node per layer, and d2s's importer would have to undo
// that; exporting one is the catalogued "no ONNX mapping" error (docs/errors.md,
// onnx_recurrent).
#include "onnx/export_emitter.h"

namespace d2s::onnx_io {

void add_rnn_exports(std::map<std::string, ExportFn>& m) {
  m["aten::embedding"] = [](Emitter& e, const ir::Node& n) {
    e.bind(n.output(), e.add1("Gather", {e.name(n.input(0)), e.name_as(n.input(1), DType::Int64)},
                              [](onnx::NodeProto* p) {
                                auto* a = p->add_attribute();
                                a->set_name("axis");
                                a->set_type(onnx::AttributeProto::INT);
                                a->set_i(0);
                              }));
  };
}

}  // namespace d2s::onnx_io
