// A script's outputs in the parse route (docs/language.md, "Scripts"): eager mode
// returns the values of the names the script assigns that hold a tensor or a number at
// the end (trace/entry.cpp); the parsed graph returns the same values, so `d2s parse`
// shows what a script computes and the routes compare their results.

#include "convert/lowerer.h"
#include "parse/script_names.h"

namespace d2s::convert {

namespace {

bool is_script_output_type(const ir::Type& t) {
  return t.kind == ir::TypeKind::Tensor || t.kind == ir::TypeKind::Int ||
         t.kind == ir::TypeKind::Float || t.kind == ir::TypeKind::Bool;
}

}  // namespace

void Lowerer::lower_script(const ast::Module& module) {
  Environment root(nullptr);
  env_ = &root;
  lower_body(module.body);
  for (const std::string& name : ast::script_assigned_names(module)) {
    // A name bound on only some paths is not bound after them (nor a poisoned one):
    // the graph has no value for it.
    const Binding* b = root.find_local(name);
    if (!b || b->is_poisoned() || !b->value.is_value() || !b->value.value) continue;
    if (is_script_output_type(b->value.value->type())) graph_.register_output(b->value.value);
  }
  env_ = nullptr;
}

}  // namespace d2s::convert
