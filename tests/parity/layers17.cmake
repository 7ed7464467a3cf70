# Issue 17's last gaps (included from CMakeLists.txt): a 0-d integer tensor as an index,
# as_strided as a view, ConvTranspose's forward(x, output_size) (tests/parity/layers17/:
# every mode against PyTorch and by --grad); writes under torch.no_grad() into inputs that
# require grad and as_strided in `d2s grad`'s static graph too (layers17_static/);
# output_size's ValueErrors against PyTorch's, live (layers17_raise/: exit 2 in every mode;
# the parsed graph raises them when it runs, as TorchScript does).
if(TARGET d2s)
  set(D2S_LAYERS17 ${CMAKE_CURRENT_SOURCE_DIR}/layers17)
  set(D2S_LAYERS17_STATIC ${CMAKE_CURRENT_SOURCE_DIR}/layers17_static)
  add_test(NAME parity_layers17
           COMMAND ${D2S_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/parity.py $<TARGET_FILE:d2s>
                   --samples ${D2S_LAYERS17} --mode eager,trace,parse)
  add_test(NAME grad_parity_layers17
           COMMAND ${D2S_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/grad_parity.py $<TARGET_FILE:d2s>
                   --samples ${D2S_LAYERS17} --mode eager,trace,parse)
  add_test(NAME parity_layers17_static
           COMMAND ${D2S_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/parity.py $<TARGET_FILE:d2s>
                   --samples ${D2S_LAYERS17_STATIC} --mode eager,trace,parse)
  add_test(NAME grad_parity_layers17_static
           COMMAND ${D2S_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/grad_parity.py $<TARGET_FILE:d2s>
                   --samples ${D2S_LAYERS17_STATIC} --mode eager,trace,parse)
  add_test(NAME static_grad_parity_layers17
           COMMAND ${D2S_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/inplace_grad_parity.py $<TARGET_FILE:d2s>
                   --samples ${D2S_LAYERS17_STATIC})
  add_test(NAME layers17_raise
           COMMAND ${D2S_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/live_errors.py $<TARGET_FILE:d2s>
                   --samples ${CMAKE_CURRENT_SOURCE_DIR}/layers17_raise --mode eager,trace,parse)
  set_tests_properties(parity_layers17 grad_parity_layers17 parity_layers17_static
                       grad_parity_layers17_static static_grad_parity_layers17 layers17_raise PROPERTIES TIMEOUT 300 LABELS parity)
endif()
# onnxruntime as the judge of the Resize modes cubic and linear on 5-d input and of writes
# through slices and selects (tests/onnx/layers17/), as onnx_judge_resize judges its own.
if(D2S_BUILD_TESTS AND TARGET d2s)
  add_test(NAME onnx_judge_layers17
           COMMAND ${PROJECT_SOURCE_DIR}/tests/onnx/run_judge.sh $<TARGET_FILE:d2s>
                   ${PROJECT_BINARY_DIR}/onnxruntime ${D2S_PYTHON}
                   --samples ${PROJECT_SOURCE_DIR}/tests/onnx/layers17)
  set_tests_properties(onnx_judge_layers17 PROPERTIES TIMEOUT 300 LABELS parity
                       DEPENDS onnx_judge)
endif()
# A broad sweep of issue 17's ops and layers in four published-style programs
# (tests/parity/layers_audit/): every mode against PyTorch, and their gradients.
if(TARGET d2s)
  add_test(NAME parity_layers_audit
           COMMAND ${D2S_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/parity.py $<TARGET_FILE:d2s>
                   --samples ${CMAKE_CURRENT_SOURCE_DIR}/layers_audit --mode eager,trace,parse)
  add_test(NAME grad_parity_layers_audit
           COMMAND ${D2S_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/grad_parity.py $<TARGET_FILE:d2s>
                   --samples ${CMAKE_CURRENT_SOURCE_DIR}/layers_audit --mode eager,trace,parse)
  set_tests_properties(parity_layers_audit grad_parity_layers_audit
                       PROPERTIES TIMEOUT 300 LABELS parity)
endif()
# Errors of this round's language pieces that PyTorch raises too, live, in every route
# (tests/parity/language2_errors/): a namedtuple made without a field, str.split with an
# empty separator made at run time, a missing key of **kwargs, torch.finfo/iinfo misused.
if(TARGET d2s)
  add_test(NAME language2_live_errors
           COMMAND ${D2S_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/live_errors.py $<TARGET_FILE:d2s>
                   --samples ${CMAKE_CURRENT_SOURCE_DIR}/language2_errors --mode eager,trace,parse)
  set_tests_properties(language2_live_errors PROPERTIES TIMEOUT 120 LABELS parity)
endif()
