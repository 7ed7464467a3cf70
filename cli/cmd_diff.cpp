// d2s diff MODEL.py --inputs IN.yaml [--inputs MORE.yaml ...] [--entry NAME]
//          [--weights W.yaml] [--format text|json] [-o OUT]
//
// Converts by both routes and reports what tracing lost (contract §4, the diff
// report). Exits 0 whenever it produced a report. Not implemented yet: it comes
// with the trace-vs-parse diff.
#include "cli/commands.h"

namespace d2s::cli {

namespace {

struct DiffCmd {
  std::string model;
  std::vector<std::string> inputs;
  std::string format = "text";
  std::string output;
  ProgramFlags flags;
};

int run_diff(const DiffCmd& o) {
  require_readable(o.model);
  for (const auto& in : o.inputs) require_readable(in);
  if (!o.flags.weights.empty()) require_readable(o.flags.weights);
  std::vector<std::string> in_files = o.inputs;
  in_files.push_back(o.model);
  in_files.push_back(o.flags.weights);
  check_output(o.output, "-o", in_files);
  return not_available("diff", "it comes with the trace-vs-parse diff");
}

}  // namespace

Command setup_diff(CLI::App& app) {
  auto o = std::make_shared<DiffCmd>();
  CLI::App* cmd =
      app.add_subcommand("diff", "Trace and parse a model program and report what tracing lost");
  cmd->add_option("MODEL", o->model, "the model program")->required()->type_name("MODEL.py");
  cmd->add_option("--inputs", o->inputs,
                  "input sets to trace with (repeat the flag for more files)")
      ->required()
      ->type_name("IN.yaml")
      ->check(extension_validator({".yaml", ".yml"}));
  add_program_flags(cmd, &o->flags);
  cmd->add_option("--format", o->format, "the report's form on stdout or in a .txt/.json file")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  add_output_flag(cmd, &o->output, {".txt", ".json", ".html", ".svg", ".png", ".pdf", ".dot"},
                  "write the report (.txt, .json), an HTML report, or both graphs side by side "
                  "as a picture");
  return Command{cmd, [o] { return run_diff(*o); }};
}

}  // namespace d2s::cli
