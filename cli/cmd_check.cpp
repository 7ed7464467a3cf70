// d2s check MODEL.py... --inputs IN.yaml [...] [--entry NAME] [--weights W.yaml]
//           [--format text|json|github|junit|html] [-o OUT]
//
// The CI gate: exit 0 when no finding is lossy and the traced and parsed graphs
// agree on every input set, exit 1 with the findings otherwise. Not implemented
// yet: it comes with the trace-vs-parse diff.
#include "cli/commands.h"

namespace d2s::cli {

namespace {

struct CheckCmd {
  std::vector<std::string> models;
  std::vector<std::string> inputs;
  std::string format = "text";
  std::string output;
  ProgramFlags flags;
};

int run_check(const CheckCmd& o) {
  for (const auto& m : o.models) require_readable(m);
  for (const auto& in : o.inputs) require_readable(in);
  if (!o.flags.weights.empty()) require_readable(o.flags.weights);
  std::vector<std::string> in_files = o.models;
  in_files.insert(in_files.end(), o.inputs.begin(), o.inputs.end());
  in_files.push_back(o.flags.weights);
  check_output(o.output, "-o", in_files);
  return not_available("check", "it comes with the trace-vs-parse diff");
}

}  // namespace

Command setup_check(CLI::App& app) {
  auto o = std::make_shared<CheckCmd>();
  CLI::App* cmd = app.add_subcommand(
      "check", "CI gate: fail (exit 1) when tracing loses behaviour or the graphs disagree");
  cmd->add_option("MODEL", o->models, "the model programs")->required()->type_name("MODEL.py...");
  cmd->add_option("--inputs", o->inputs, "input sets (repeat the flag for more files)")
      ->required()
      ->type_name("IN.yaml")
      ->check(extension_validator({".yaml", ".yml"}));
  add_program_flags(cmd, &o->flags);
  cmd->add_option("--format", o->format,
                  "text, json, github (::warning annotations), junit (XML, one test case per "
                  "model) or html")
      ->check(CLI::IsMember({"text", "json", "github", "junit", "html"}))
      ->capture_default_str();
  add_output_flag(cmd, &o->output, {".txt", ".json", ".xml", ".html"},
                  "write the report here instead of stdout");
  return Command{cmd, [o] { return run_check(*o); }};
}

}  // namespace d2s::cli
