// The ONNX mapping of aten::embedding: Gather of the weight's rows (axis 0) by the
// indices; and, from op_export_recurrent.cpp, the recurrent ops (aten::lstm, gru,
// rnn_tanh, rnn_relu → one ONNX LSTM/GRU/RNN node per layer, gates reordered; their
// cells → their formulas).
#include "onnx/export_emitter.h"

namespace d2s::onnx_io {

void add_recurrent_exports(std::map<std::string, ExportFn>& m);

void add_rnn_exports(std::map<std::string, ExportFn>& m) {
  add_recurrent_exports(m);
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
