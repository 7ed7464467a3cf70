// The d2s program: one file per subcommand (CLI11's subcom_in_files layout).
//
// Each cmd_<name>.cpp holds an options struct, setup_<name>() that declares the
// subcommand with its flags on the top-level app, and run_<name>() that does the
// work once the command line is parsed. main.cpp parses, runs the one selected
// command, and turns every failure into one message on stderr and an exit code
// (docs/cli.md): 0 success, 1 a check or guard failed, 2 bad usage or bad input.
//
// run_* functions report problems by throwing d2s::Error; only report_error.cpp
// prints them (one error channel, style.md).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "convert/lower.h"
#include "core/base/error.h"
#include "core/io/yaml_io.h"
#include "core/ir/ir.h"
#include "trace/interpreter.h"
#include "trace/tracer.h"

namespace d2s::cli {

// A declared subcommand and the action main() runs when it was selected.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

Command setup_parse(CLI::App& app);
Command setup_trace(CLI::App& app);
Command setup_run(CLI::App& app);
Command setup_diff(CLI::App& app);
Command setup_render(CLI::App& app);
Command setup_check(CLI::App& app);
Command setup_grad(CLI::App& app);
Command setup_export(CLI::App& app);
Command setup_code(CLI::App& app);
Command setup_ops(CLI::App& app);

// Hands a command's large result (a 100,000-node graph with its plans and report) to
// the end of the process instead of tearing it down object by object just before the
// process exits: the operating system takes the memory back at once. Freeing the graph
// of a 100,000-node trace was 7% of `d2s diff`'s time; clang's driver skips the same
// work with -disable-free. The objects stay reachable from a global list, so
// LeakSanitizer does not report them.
template <typename T>
void keep_until_exit(T&& value) {
  static auto* kept = new std::vector<std::shared_ptr<void>>();
  kept->push_back(std::make_shared<std::decay_t<T>>(std::forward<T>(value)));
}

// ---------------------------------------------------------------------------
// Flags shared by the commands that run a program (cli/options.cpp).

struct ProgramFlags {
  std::string entry;
  uint64_t seed = 0;
  std::string weights;
  bool eval = false;  // --eval: modules in eval mode (training = False)
  int64_t max_iterations = Limits{}.max_total_iterations;
  int max_call_depth = Limits{}.max_call_depth;
};

void add_entry_flag(CLI::App* cmd, std::string* entry);
// --entry, --weights, --seed, --eval: what building the entry module needs (parse).
void add_conversion_flags(CLI::App* cmd, ProgramFlags* flags);
// The conversion flags plus --max-iterations and --max-call-depth (commands that run).
void add_program_flags(CLI::App* cmd, ProgramFlags* flags);
// --max-trace-nodes N (trace, run --mode trace).
void add_max_trace_nodes_flag(CLI::App* cmd, int64_t* max_nodes);
// The check of every count flag (1 or more). CLI11's PositiveNumber says "Value 0 not in
// range 0.000000 to <DBL_MAX>" on a bad value; this says "not in range 1 to <INT64_MAX>".
CLI::Validator positive_count();
// -o,--output checked against the accepted extensions (".yaml", ...).
CLI::Option* add_output_flag(CLI::App* cmd, std::string* path,
                             const std::vector<std::string>& extensions, const std::string& help);
// A validator accepting a path whose extension is one of `extensions`.
CLI::Validator extension_validator(const std::vector<std::string>& extensions);

// The lowercase extension of a path, with its dot (".yaml"); empty when none.
std::string extension_of(const std::string& path);
bool is_yaml_path(const std::string& path);

// Throws d2s::Error when `path` cannot be read (before slow work starts).
void require_readable(const std::string& path);
// Checks an output path before any work: it must not be one of `inputs` (an
// input file is never modified) and its directory must exist. `flag` names the
// output flag in the message. Does nothing for an empty path.
void check_output(const std::string& output, const std::string& flag,
                  const std::vector<std::string>& inputs);

// The RunOptions for the interpreter from the shared flags and loaded weights.
RunOptions make_run_options(const ProgramFlags& flags, const std::vector<NamedTensor>& weights);

// Binds one input set to the entry's parameters by name. Unknown names, missing
// parameters and inputs to a <module> entry are d2s::Errors pointing into the
// inputs file (or at the parameter in the program when no file was given).
// With `require_all` false, parameters the set does not give are not an error (the
// set only gives example shapes).
NamedInputs bind_inputs(const EntryInfo& entry, const InputSet& set, const std::string& inputs_path,
                        bool require_all = true);

// program.prepare(opts); a failure caused by the weights file is reported at the
// offending key of that file rather than with no position.
void prepare_with_weights(Program& program, const RunOptions& opts,
                          const std::vector<NamedTensor>& weights);

// ---------------------------------------------------------------------------
// The two routes and graph files (cli/routes.cpp).

// The parse route with the shared flags: the weights are checked against the module
// first (so a bad one is reported at its key in W.yaml); `example`, when given,
// lends its tensors' shapes and dtypes (symbolic dims, docs/ir.md) unless
// `example_shapes` is false, and the types of its other values to unannotated
// parameters (a tuple, a number, a list).
convert::LoweredGraph parse_model(const std::string& model, const ProgramFlags& flags,
                                  const std::vector<NamedTensor>& weights, const InputSet* example,
                                  const std::string& example_path, bool example_shapes = true);

struct TraceFlags {
  bool no_guards = false;
  int64_t max_nodes = TraceOptions{}.max_nodes;
};

// The trace route on one input set (bound by name, copied so the traced run cannot
// change it). What the program prints while it is traced is discarded: the graph
// does not keep print (torch.jit.trace drops it; d2s diff reports it).
TraceResult trace_model(Program& program, const ProgramFlags& flags,
                        const std::vector<NamedTensor>& weights, const TraceFlags& trace,
                        const InputSet& set, const std::string& inputs_path);

// -o of parse and trace: the IR file (.yaml/.yml), the text (.txt) or a picture
// (.svg .png .pdf .dot, drawn as `d2s render` draws it), atomically; no path: the
// text on stdout.
void write_graph(const ir::Graph& graph, const std::string& output);

// ---------------------------------------------------------------------------
// ONNX models as graphs (cli/onnx_graph.cpp).

bool is_onnx_path(const std::string& path);
// The model imported into the IR; its initializers (the parameters) go to `params`.
// An unsupported op or type is a d2s::Error (exit 2) naming the node and its op type.
std::unique_ptr<ir::Graph> load_onnx_graph(const std::string& path,
                                           std::vector<std::pair<std::string, Tensor>>* params);

// ---------------------------------------------------------------------------
// Reporting (cli/report_error.cpp). Each prints to stderr and returns the exit code.

int report_error(const Error& err);
// A CLI11 parse error: "d2s: error: <message>" and "hint: see d2s <cmd> --help".
int report_usage_error(const std::string& command_path, const std::string& message);
// A C++ exception that is not a d2s::Error: a bug in d2s.
int report_internal_error(const std::string& what);
// "d2s <what>: not available yet in this version (<reason>)", exit 2.
int not_available(const std::string& what, const std::string& reason);

}  // namespace d2s::cli
