// The look of the pictures (internal to viz/): one place for fonts and colours, so
// every element of every picture agrees. docs/render.md explains the choices.
//
// Colours are Tailwind's slate (structure), blue (inputs, loops), green (outputs,
// then-arms), orange (else-arms), amber (guards: something the trace baked in),
// violet (folded runs) and red (raise): a few hues, each with one meaning, light
// fills with a darker border of the same hue, so text stays dark on light everywhere.
#pragma once

namespace d2s::viz::style {

// Helvetica where the viewer has it (browsers showing SVG); Graphviz itself lays out
// with what fontconfig finds for the list (DejaVu Sans on Debian).
inline constexpr const char* kFont = "Helvetica,Arial,sans-serif";
inline constexpr const char* kMonoFont = "DejaVu Sans Mono,Menlo,Consolas,monospace";

inline constexpr const char* kText = "#0f172a";        // slate-900
inline constexpr const char* kSubtleText = "#64748b";  // slate-500: types, locations
inline constexpr const char* kEdge = "#94a3b8";        // slate-400

inline constexpr const char* kOpFill = "#ffffff";
inline constexpr const char* kOpBorder = "#94a3b8";
inline constexpr const char* kStructFill = "#f1f5f9";  // tuples, lists, merges
inline constexpr const char* kStructBorder = "#cbd5e1";

inline constexpr const char* kInputFill = "#dbeafe";  // blue-100
inline constexpr const char* kInputBorder = "#3b82f6";
inline constexpr const char* kOutputFill = "#dcfce7";  // green-100
inline constexpr const char* kOutputBorder = "#16a34a";

inline constexpr const char* kGuardFill = "#fef3c7";  // amber-100
inline constexpr const char* kGuardBorder = "#d97706";
inline constexpr const char* kBaked = "#b45309";  // amber-700: constants a trace baked in
inline constexpr const char* kRaiseFill = "#fee2e2";
inline constexpr const char* kRaiseBorder = "#dc2626";
inline constexpr const char* kPrintFill = "#f8fafc";

inline constexpr const char* kFoldFill = "#ede9fe";  // violet-100
inline constexpr const char* kFoldBorder = "#7c3aed";
inline constexpr const char* kFoldText = "#6d28d9";

inline constexpr const char* kNoteFill = "#f8fafc";
inline constexpr const char* kNoteBorder = "#64748b";

inline constexpr const char* kIfFill = "#f8fafc";
inline constexpr const char* kIfBorder = "#94a3b8";
inline constexpr const char* kThenFill = "#f0fdf4";
inline constexpr const char* kThenBorder = "#86efac";
inline constexpr const char* kThenEdge = "#16a34a";
inline constexpr const char* kElseFill = "#fff7ed";
inline constexpr const char* kElseBorder = "#fdba74";
inline constexpr const char* kElseEdge = "#ea580c";
inline constexpr const char* kLoopFill = "#eff6ff";
inline constexpr const char* kLoopBorder = "#93c5fd";
inline constexpr const char* kLoopEdge = "#2563eb";

inline constexpr const char* kPanelBorder = "#cbd5e1";

// The diff picture (viz/diff_picture.h): what the trace kept, what it lost.
inline constexpr const char* kKeptFill = "#dcfce7";  // green-100
inline constexpr const char* kKeptBorder = "#16a34a";
inline constexpr const char* kLostFill = "#fee2e2";  // red-100
inline constexpr const char* kLostBorder = "#dc2626";

}  // namespace d2s::viz::style
