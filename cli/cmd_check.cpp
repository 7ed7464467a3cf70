// d2s check MODEL.py... --inputs IN.yaml [...] [--entry NAME] [--weights W.yaml]
//           [--format text|json|github|junit|html] [-o OUT]
//
// The CI gate (convert/check.h, docs/ci.md): exit 0 when no finding is lossy and
// the trace and the parsed graph agree on every input set, 1 otherwise, 2 for input
// that cannot be used. Which --inputs belong to which model: with one model, all of
// them; with several, one file per model in order, or one file shared by all.
#include <iostream>

#include "cli/diff_common.h"
#include "convert/check.h"
#include "core/base/file_io.h"
#include "viz/html_report.h"

namespace d2s::cli {

namespace {

struct CheckCmd {
  std::vector<std::string> models;
  std::vector<std::string> inputs;
  std::string format = "text";
  std::string output;
  ProgramFlags flags;
  int64_t max_trace_nodes = convert::DiffOptions{}.max_trace_nodes;
  size_t max_nodes = viz::RenderOptions{}.max_nodes;
  CLI::Option* format_option = nullptr;
};

// The extension each form is written to.
std::string extension_for(const std::string& format) {
  return format == "json"    ? ".json"
         : format == "junit" ? ".xml"
         : format == "html"  ? ".html"
                             : ".txt";
}

// --format, or without it the form -o's extension names; they must agree.
std::string report_format(const CheckCmd& o) {
  if (o.output.empty()) return o.format;
  const std::string ext = extension_of(o.output);
  if (!o.format_option->count()) {
    return ext == ".json" ? "json" : ext == ".xml" ? "junit" : ext == ".html" ? "html" : "text";
  }
  if (extension_for(o.format) != ext) {
    throw Error("--format " + o.format + " does not match -o " + o.output, SourceRange(),
                "write the " + o.format + " report to a " + extension_for(o.format) + " file");
  }
  return o.format;
}

// The input files of each model (see the header comment).
std::vector<std::vector<std::string>> inputs_per_model(const CheckCmd& o) {
  const size_t n = o.models.size();
  if (n == 1) return {o.inputs};
  if (o.inputs.size() == n) {
    std::vector<std::vector<std::string>> out;
    for (const auto& in : o.inputs) out.push_back({in});
    return out;
  }
  if (o.inputs.size() == 1) return std::vector<std::vector<std::string>>(n, o.inputs);
  throw Error("got " + std::to_string(n) + " models but " + std::to_string(o.inputs.size()) +
                  " --inputs files",
              SourceRange(),
              "give one --inputs per model, in the models' order, or one file for all of them");
}

int run_check(const CheckCmd& o) {
  for (const auto& m : o.models) require_readable(m);
  for (const auto& in : o.inputs) require_readable(in);
  if (!o.flags.weights.empty()) require_readable(o.flags.weights);
  std::vector<std::string> in_files = o.models;
  in_files.insert(in_files.end(), o.inputs.begin(), o.inputs.end());
  in_files.push_back(o.flags.weights);
  check_output(o.output, "-o", in_files);
  const std::string format = report_format(o);
  const auto inputs = inputs_per_model(o);

  // CI wants a fast verdict: no counterexample search (d2s diff shows them).
  convert::DiffOptions options;
  options.search = false;
  options.max_trace_nodes = o.max_trace_nodes;
  std::vector<convert::CheckedModel> models;
  for (size_t i = 0; i < o.models.size(); ++i) {
    models.push_back({o.models[i], diff_model(o.models[i], inputs[i], o.flags, options)});
  }
  viz::DiffPictureOptions picture;
  picture.render.max_nodes = o.max_nodes;
  const std::string text = format == "json"     ? convert::format_check_json(models)
                           : format == "github" ? convert::format_check_github(models)
                           : format == "junit"  ? convert::format_check_junit(models)
                           : format == "html"   ? viz::html_check_report(models, picture)
                                                : convert::format_check_text(models);
  if (o.output.empty()) {
    std::cout << text << std::flush;
  } else {
    write_file_atomic(o.output, text);
    std::cout << convert::check_summary(models) << "\n" << std::flush;
  }
  return convert::check_exit_code(models);
}

}  // namespace

Command setup_check(CLI::App& app) {
  auto o = std::make_shared<CheckCmd>();
  CLI::App* cmd = app.add_subcommand(
      "check", "CI gate: fail (exit 1) when tracing loses behaviour or the graphs disagree");
  cmd->add_option("MODEL", o->models, "the model programs")->required()->type_name("MODEL.py...");
  cmd->add_option("--inputs", o->inputs,
                  "input sets: with one model, every file is its; with several, one file per "
                  "model in order, or one for all")
      ->required()
      ->type_name("IN.yaml")
      ->check(extension_validator({".yaml", ".yml"}));
  add_program_flags(cmd, &o->flags);
  o->format_option =
      cmd->add_option("--format", o->format,
                      "text, json, github (workflow annotations), junit (XML, one test case per "
                      "model) or html; -o's extension picks it when not given")
          ->check(CLI::IsMember({"text", "json", "github", "junit", "html"}))
          ->capture_default_str();
  add_max_trace_nodes_flag(cmd, &o->max_trace_nodes);
  cmd->add_option("--max-nodes", o->max_nodes,
                  "in the HTML report, the nodes drawn per graph before the rest is summarised "
                  "in one note")
      ->type_name("N")
      ->check(positive_count())
      ->capture_default_str();
  add_output_flag(cmd, &o->output, {".txt", ".json", ".xml", ".html"},
                  "write the report here instead of stdout");
  return Command{cmd, [o] { return run_check(*o); }};
}

}  // namespace d2s::cli
