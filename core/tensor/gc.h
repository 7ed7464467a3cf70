// Reference cycles among the values of the model language, collected as Python's
// cycle collector does.
//
// Values are reference-counted (shared_ptr), and Python programs make cycles freely:
// a nested function that calls itself (its closure holds the frame that holds it), an
// object that stores itself or its parent, a list appended to itself. Reference
// counting alone never frees those, so every container value (a list, a tuple, an
// interpreter Object, a frame's variables, a closure) is a GcNode: it registers itself
// while alive and can report the references it holds and drop them.
//
// collect_cycles() finds the nodes no one outside the registered nodes refers to
// (CPython's trial deletion: a node's reference count minus the references other
// nodes report to it is what the rest of the program holds), keeps every node
// reachable from one that is held from outside, and clears the rest, which frees them.
// A node that under-reports its references is merely never collected; one that
// over-reports could free a live value, so a count that goes negative stops the
// collection instead.
#pragma once

#include <cstddef>
#include <memory>

namespace d2s {

class IValue;
class GcNode;

// Receives the references a node holds to other nodes: one call per owning
// shared_ptr (a weak_ptr or a raw pointer is no reference).
class GcVisitor {
 public:
  virtual ~GcVisitor() = default;
  virtual void node(const GcNode* n) = 0;
  // The list, tuple or Object inside `v`, if any.
  void value(const IValue& v);
};

class GcNode : public std::enable_shared_from_this<GcNode> {
 public:
  GcNode();
  GcNode(const GcNode& other);
  GcNode& operator=(const GcNode&) { return *this; }  // registration stays with the object
  virtual ~GcNode();

  // Reports every reference this node owns to another node.
  virtual void gc_visit(GcVisitor& v) const { (void)v; }
  // Drops those references (called only on a node in an unreachable cycle).
  virtual void gc_clear() {}

 private:
  friend size_t collect_cycles();
  friend size_t gc_live_nodes();
  GcNode* prev_ = nullptr;
  GcNode* next_ = nullptr;
};

// Frees the values that only cycles keep alive; returns how many nodes it freed.
// Call it where no interpreter code is running (it frees what only cycles hold).
size_t collect_cycles();
// Nodes alive now (for tests).
size_t gc_live_nodes();

}  // namespace d2s
