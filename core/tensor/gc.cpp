#include "core/tensor/gc.h"

#include <mutex>
#include <unordered_map>
#include <vector>

#include "core/tensor/ivalue.h"

namespace d2s {
namespace {

// Every live node, as an intrusive doubly-linked list (insertion and removal are
// O(1) and allocate nothing: lists and tuples are made on every step of a loop).
struct Registry {
  std::mutex mutex;
  GcNode* head = nullptr;
  size_t size = 0;
};

Registry& registry() {
  static Registry* r = new Registry;  // never destroyed: nodes may outlive static destruction
  return *r;
}

}  // namespace

void GcVisitor::value(const IValue& v) {
  if (const GcNode* n = v.gc_node()) node(n);
}

GcNode::GcNode() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  next_ = r.head;
  if (r.head) r.head->prev_ = this;
  r.head = this;
  ++r.size;
}

GcNode::GcNode(const GcNode&) : GcNode() {}

GcNode::~GcNode() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (prev_) prev_->next_ = next_;
  if (next_) next_->prev_ = prev_;
  if (r.head == this) r.head = next_;
  --r.size;
}

size_t gc_live_nodes() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.size;
}

size_t collect_cycles() {
  // A strong reference to every node owned by a shared_ptr (others — on the stack,
  // or being destroyed — are left alone): while these are held nothing is freed.
  std::vector<std::shared_ptr<GcNode>> nodes;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    nodes.reserve(r.size);
    for (GcNode* n = r.head; n; n = n->next_) {
      if (auto held = n->weak_from_this().lock()) nodes.push_back(std::move(held));
    }
  }
  std::unordered_map<const GcNode*, size_t> index;
  index.reserve(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) index.emplace(nodes[i].get(), i);

  // References from outside the nodes: the count minus ours minus the nodes' own.
  std::vector<long> outside(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) outside[i] = nodes[i].use_count() - 1;
  struct Subtract : GcVisitor {
    std::unordered_map<const GcNode*, size_t>& index;
    std::vector<long>& outside;
    Subtract(std::unordered_map<const GcNode*, size_t>& index, std::vector<long>& outside)
        : index(index), outside(outside) {}
    void node(const GcNode* n) override {
      auto it = index.find(n);
      if (it != index.end()) --outside[it->second];
    }
  } subtract(index, outside);
  for (const auto& n : nodes) n->gc_visit(subtract);
  for (long count : outside) {
    if (count < 0) return 0;  // a node reported a reference it does not own: collect nothing
  }

  // Everything reachable from a node held from outside stays.
  std::vector<bool> reachable(nodes.size(), false);
  std::vector<size_t> work;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (outside[i] > 0) {
      reachable[i] = true;
      work.push_back(i);
    }
  }
  struct Mark : GcVisitor {
    std::unordered_map<const GcNode*, size_t>& index;
    std::vector<bool>& reachable;
    std::vector<size_t>& work;
    Mark(std::unordered_map<const GcNode*, size_t>& index, std::vector<bool>& reachable,
         std::vector<size_t>& work)
        : index(index), reachable(reachable), work(work) {}
    void node(const GcNode* n) override {
      auto it = index.find(n);
      if (it != index.end() && !reachable[it->second]) {
        reachable[it->second] = true;
        work.push_back(it->second);
      }
    }
  } mark(index, reachable, work);
  while (!work.empty()) {
    size_t i = work.back();
    work.pop_back();
    nodes[i]->gc_visit(mark);
  }

  // The rest is garbage held only by cycles: dropping its references frees it when
  // `nodes` lets go.
  size_t freed = 0;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (reachable[i]) continue;
    nodes[i]->gc_clear();
    ++freed;
  }
  return freed;
}

}  // namespace d2s
