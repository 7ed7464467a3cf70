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
#include <string>
#include <vector>

#include "core/error.h"
#include "core/yaml_io.h"
#include "trace/interpreter.h"

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
// --seed, --weights, --eval, --max-iterations, --max-call-depth (and --entry).
void add_program_flags(CLI::App* cmd, ProgramFlags* flags);
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
NamedInputs bind_inputs(const EntryInfo& entry, const InputSet& set,
                        const std::string& inputs_path);

// program.prepare(opts); a failure caused by the weights file is reported at the
// offending key of that file rather than with no position.
void prepare_with_weights(Program& program, const RunOptions& opts,
                          const std::vector<NamedTensor>& weights);

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
