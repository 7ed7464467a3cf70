// The cycle collector (core/tensor/gc.h) on lists and tuples: cycles no one else holds are
// freed, and nothing reachable from a value held elsewhere is touched.
#include "core/tensor/gc.h"

#include <gtest/gtest.h>

#include "core/tensor/ivalue.h"

namespace d2s {
namespace {

TEST(CycleCollector, FreesAListThatHoldsItself) {
  collect_cycles();
  const size_t before = gc_live_nodes();
  {
    IValue list = IValue::list({IValue(int64_t{1})});
    list.list_items().push_back(list);  // list.append(list)
    EXPECT_EQ(gc_live_nodes(), before + 1);
  }
  EXPECT_EQ(gc_live_nodes(), before + 1);  // reference counting alone keeps it
  EXPECT_EQ(collect_cycles(), 1u);
  EXPECT_EQ(gc_live_nodes(), before);
}

TEST(CycleCollector, FreesACycleThroughATuple) {
  collect_cycles();
  const size_t before = gc_live_nodes();
  {
    IValue a = IValue::list({});
    IValue t = IValue::tuple({a, IValue(Tensor::scalar(2.0))});
    a.list_items().push_back(t);
  }
  EXPECT_EQ(collect_cycles(), 2u);
  EXPECT_EQ(gc_live_nodes(), before);
}

TEST(CycleCollector, KeepsACycleHeldFromOutsideAndWhatItReaches) {
  collect_cycles();
  IValue held = IValue::list({});
  IValue inner = IValue::list({IValue(int64_t{7})});
  held.list_items().push_back(held);
  held.list_items().push_back(inner);
  IValue inner_copy = held.list_items()[1];
  inner = IValue();
  EXPECT_EQ(collect_cycles(), 0u);
  ASSERT_EQ(held.list_items().size(), 2u);
  EXPECT_EQ(inner_copy.list_items()[0].to_int(), 7);
  held.list_items().clear();  // break it by hand: nothing left for the collector
}

TEST(CycleCollector, LeavesAcyclicValuesToReferenceCounting) {
  collect_cycles();
  IValue nested = IValue::list({IValue::tuple({IValue(int64_t{1})}), IValue::list({})});
  EXPECT_EQ(collect_cycles(), 0u);
  EXPECT_EQ(nested.list_items().size(), 2u);
}

}  // namespace
}  // namespace d2s
