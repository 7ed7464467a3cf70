// DrawGraph → cgraph → libgvc: the only file that talks to Graphviz.
//
// Graphviz keeps global state (its error channel, its string dictionaries) and is not
// thread-safe, so one mutex serialises every use. It prints errors and warnings to
// stderr by default; while we hold the mutex they go to a buffer instead, and a failure
// becomes one d2s::Error that carries them (style.md: one error channel).
#include <gvc.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/base/error.h"
#include "viz/graphviz.h"

namespace d2s::viz {

namespace {

std::mutex& graphviz_mutex() {
  static std::mutex m;
  return m;
}

// agseterrf takes a plain function without a user pointer; the mutex makes this safe.
std::string* g_messages = nullptr;

int collect_message(char* text) {
  if (g_messages && text) g_messages->append(text);
  return 0;
}

class CaptureErrors {
 public:
  explicit CaptureErrors(std::string& sink) {
    g_messages = &sink;
    previous_fn_ = agseterrf(collect_message);
    previous_level_ = agseterr(AGWARN);
    agreseterrors();
  }
  ~CaptureErrors() {
    agseterr(previous_level_);
    agseterrf(previous_fn_);
    g_messages = nullptr;
  }
  CaptureErrors(const CaptureErrors&) = delete;
  CaptureErrors& operator=(const CaptureErrors&) = delete;

 private:
  agusererrf previous_fn_;
  agerrlevel_t previous_level_;
};

// One Graphviz context for the whole process, made on first use (under the mutex) and
// never freed. Graphviz 2.42's pango plugin caches the last font it looked up in a
// static variable that points into the context's font dictionary: freeing a context
// and making another leaves that pointer dangling (valgrind sees the use after free),
// so contexts are not per call. Loading the plugins once also saves time per picture.
GVC_t* context() {
  static GVC_t* gvc = gvContext();
  return gvc;
}

// Frees a graph in Graphviz's required order: its layout, then the graph.
class Session {
 public:
  explicit Session(GVC_t* gvc) : gvc_(gvc) {}
  ~Session() {
    if (graph_ && laid_out_) gvFreeLayout(gvc_, graph_);
    if (graph_) agclose(graph_);
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  GVC_t* gvc() const { return gvc_; }
  Agraph_t* graph() const { return graph_; }
  void set_graph(Agraph_t* g) { graph_ = g; }
  void set_laid_out() { laid_out_ = true; }

 private:
  GVC_t* gvc_;
  Agraph_t* graph_ = nullptr;
  bool laid_out_ = false;
};

// cgraph's API predates const; it copies every string it is given.
char* cstr(const std::string& s) {
  return const_cast<char*>(s.c_str());
}

// agwrite through this writes into a std::string (the channel).
int put_string(void* chan, const char* text) {
  static_cast<std::string*>(chan)->append(text);
  return 0;
}
int flush_nothing(void*) {
  return 0;
}
Agiodisc_t string_io = {nullptr, put_string, flush_nothing};

// Object ids in creation order. cgraph's default ids for named objects are the
// addresses of their interned names, and it keeps subgraphs sorted by id: clusters
// would then come out (and be laid out) in an order that changes from run to run.
// Named objects get even ids, anonymous ones (edges) odd ids, as in the default.
// Names are interned in the graph's string dictionary, as the default does: cgraph
// looks at a name's dictionary entry (is it HTML?) when it writes DOT.
struct IdState {
  Agraph_t* graph;
  std::unordered_map<std::string, IDTYPE> ids;
  std::unordered_map<IDTYPE, char*> names;  // owned by the graph's string dictionary
  IDTYPE next_named = 2;
  IDTYPE next_anonymous = 1;
};

void* id_open(Agraph_t* graph, Agdisc_t*) {
  return new IdState{graph, {}, {}};
}

long id_map(void* state, int, char* name, IDTYPE* id, int create) {
  auto* s = static_cast<IdState*>(state);
  if (!name) {
    *id = s->next_anonymous;
    s->next_anonymous += 2;
    return 1;
  }
  auto it = s->ids.find(name);
  if (it != s->ids.end()) {
    *id = it->second;
    return 1;
  }
  if (!create) return 0;
  *id = s->next_named;
  s->next_named += 2;
  s->ids.emplace(name, *id);
  s->names.emplace(*id, agstrdup(s->graph, name));
  return 1;
}

long id_alloc(void*, int, IDTYPE) {
  return 0;  // no object asks for a particular id
}

void id_free(void*, int, IDTYPE) {}

char* id_print(void* state, int, IDTYPE id) {
  auto* s = static_cast<IdState*>(state);
  auto it = s->names.find(id);
  return it == s->names.end() ? nullptr : it->second;
}

void id_close(void* state) {
  delete static_cast<IdState*>(state);
}

void id_register(void*, int, void*) {}

Agiddisc_t ordered_ids = {id_open, id_map, id_alloc, id_free, id_print, id_close, id_register};
Agdisc_t string_disc = {&AgMemDisc, &ordered_ids, &string_io};

// The attribute's symbol for objects of `kind`, declared with an empty default when
// new (declaring with a value would change the default of every object).
Agsym_t* symbol(Agraph_t* root, int kind, const std::string& name) {
  if (Agsym_t* s = agattr(root, kind, cstr(name), nullptr)) return s;
  return agattr(root, kind, cstr(name), cstr(""));
}

void set_attr(Agraph_t* root, void* obj, int kind, const std::string& name,
              const std::string& value) {
  Agsym_t* s = symbol(root, kind, name);
  if (name == "label") {
    // An HTML-like label: the string must be interned as HTML before it is set.
    char* h = agstrdup_html(root, cstr(value));
    agxset(obj, s, h);
    agstrfree(root, h);
  } else {
    agxset(obj, s, cstr(value));
  }
}

// Attributes that clusters should inherit from the root graph; the others (label,
// colours, style) are set on the root alone.
bool inherited(const std::string& name) {
  return name == "fontname" || name == "fontsize" || name == "fontcolor" || name == "labeljust";
}

Agraph_t* to_cgraph(const DrawGraph& d) {
  Agraph_t* g = agopen(cstr(d.name), Agdirected, &string_disc);
  if (!g) throw Error("Graphviz could not create a graph");
  for (const auto& [k, v] : d.graph_attrs.items()) {
    if (inherited(k)) {
      agattr(g, AGRAPH, cstr(k), cstr(v));
    } else {
      set_attr(g, g, AGRAPH, k, v);
    }
  }
  for (const auto& [k, v] : d.node_defaults.items()) agattr(g, AGNODE, cstr(k), cstr(v));
  for (const auto& [k, v] : d.edge_defaults.items()) agattr(g, AGEDGE, cstr(k), cstr(v));

  std::vector<Agraph_t*> subgraphs;
  subgraphs.reserve(d.clusters.size());
  for (const DrawCluster& c : d.clusters) {
    Agraph_t* parent = c.parent < 0 ? g : subgraphs.at(static_cast<size_t>(c.parent));
    Agraph_t* sub = agsubg(parent, cstr(c.name), 1);
    for (const auto& [k, v] : c.attrs.items()) set_attr(g, sub, AGRAPH, k, v);
    subgraphs.push_back(sub);
  }
  std::vector<Agnode_t*> nodes;
  nodes.reserve(d.nodes.size());
  for (const DrawNode& n : d.nodes) {
    Agraph_t* owner = n.cluster < 0 ? g : subgraphs.at(static_cast<size_t>(n.cluster));
    Agnode_t* node = agnode(owner, cstr(n.name), 1);
    for (const auto& [k, v] : n.attrs.items()) set_attr(g, node, AGNODE, k, v);
    nodes.push_back(node);
  }
  for (const DrawEdge& e : d.edges) {
    Agedge_t* edge = agedge(g, nodes.at(e.from), nodes.at(e.to), nullptr, 1);
    for (const auto& [k, v] : e.attrs.items()) {
      // Edge labels are plain text; only node, cluster and graph labels are HTML.
      agxset(edge, symbol(g, AGEDGE, k), cstr(v));
    }
  }
  return g;
}

// PNGs are drawn at 144 dpi (sharp on high-density screens) unless that makes the
// image huge: a bitmap's cost grows with its pixels, and cairo cannot make one wider
// or taller than 32,767 pixels. Big pictures get fewer dots per inch instead (SVG has
// no such limit). The layout is done by now; the renderer reads the resolution from
// the graph's drawing record, which is where Graphviz put the `dpi` attribute.
void set_png_resolution(Agraph_t* g) {
  constexpr double kDpi = 144;
  constexpr double kMaxPixels = 12e6;
  constexpr double kMaxSide = 16000;
  const boxf bb = GD_bb(g);
  const double w = std::max(bb.UR.x - bb.LL.x, 1.0) / 72.0;  // inches
  const double h = std::max(bb.UR.y - bb.LL.y, 1.0) / 72.0;
  double dpi = kDpi;
  dpi = std::min(dpi, std::sqrt(kMaxPixels / (w * h)));
  dpi = std::min(dpi, kMaxSide / std::max(w, h));
  GD_drawing(g)->dpi = std::max(dpi, 1.0);
}

// Graphviz's messages, cut to the first few lines (it repeats one problem per node).
std::string first_lines(const std::string& messages) {
  constexpr size_t kLines = 6;
  std::string out;
  size_t lines = 0;
  size_t start = 0;
  while (start < messages.size() && lines < kLines) {
    size_t end = messages.find('\n', start);
    if (end == std::string::npos) end = messages.size();
    std::string line = messages.substr(start, end - start);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (!line.empty()) {
      out += (out.empty() ? "" : "\n") + line;
      ++lines;
    }
    start = end + 1;
  }
  if (start < messages.size()) out += "\n...";
  return out;
}

Error graphviz_error(const std::string& what, const std::string& messages) {
  const std::string m = first_lines(messages);
  return Error("Graphviz could not " + what + (m.empty() ? "" : ": " + m), SourceRange(),
               "this is a problem in d2s or in the installed Graphviz (libgvc); please report "
               "it with the graph file");
}

}  // namespace

std::string render_draw_graph(const DrawGraph& graph, Format format) {
  std::lock_guard<std::mutex> lock(graphviz_mutex());
  std::string messages;
  CaptureErrors capture(messages);
  Session session(context());
  if (!session.gvc()) throw graphviz_error("start", messages);
  session.set_graph(to_cgraph(graph));

  if (format == Format::Dot) {
    std::string text;
    if (agwrite(session.graph(), &text) != 0 || agerrors() >= AGERR) {
      throw graphviz_error("write DOT", messages);
    }
    return text;
  }
  if (gvLayout(session.gvc(), session.graph(), "dot") != 0) {
    throw graphviz_error("lay out the graph", messages);
  }
  session.set_laid_out();
  if (format == Format::Png) set_png_resolution(session.graph());
  char* data = nullptr;
  unsigned int length = 0;
  const char* name = format_name(format);
  if (gvRenderData(session.gvc(), session.graph(), name, &data, &length) != 0 || !data) {
    if (data) gvFreeRenderData(data);
    throw graphviz_error(std::string("render ") + name, messages);
  }
  std::string bytes(data, length);
  gvFreeRenderData(data);
  // Graphviz carries on after an error (a label it cannot parse is drawn as the node's
  // name): a wrong picture would look right, so it is an error here.
  if (agerrors() >= AGERR) throw graphviz_error(std::string("draw the ") + name, messages);
  return bytes;
}

}  // namespace d2s::viz
