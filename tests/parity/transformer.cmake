# nn.MultiheadAttention and the nn.Transformer* layers (included
# from CMakeLists.txt; tests/parity/transformer/): every mode against PyTorch and by
# --grad, and their construction and forward errors against PyTorch's, live
# (transformer_errors/).
if(TARGET d2s)
  set(D2S_TRANSFORMER ${CMAKE_CURRENT_SOURCE_DIR}/transformer)
  add_test(NAME parity_transformer
           COMMAND ${D2S_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/parity.py $<TARGET_FILE:d2s>
                   --samples ${D2S_TRANSFORMER} --mode eager,trace,parse)
  add_test(NAME grad_parity_transformer
           COMMAND ${D2S_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/grad_parity.py $<TARGET_FILE:d2s>
                   --samples ${D2S_TRANSFORMER} --mode eager,trace,parse)
  add_test(NAME transformer_live_errors
           COMMAND ${D2S_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/live_errors.py $<TARGET_FILE:d2s>
                   --samples ${CMAKE_CURRENT_SOURCE_DIR}/transformer_errors --mode eager,trace,parse)
  set_tests_properties(parity_transformer grad_parity_transformer transformer_live_errors
                       PROPERTIES TIMEOUT 300 LABELS parity)
endif()
