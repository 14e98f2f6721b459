# Sourced by the e2e tests that drive one code path through many like
# cases.  Under RVT_TEST_QUICK (set and not 0: the sanitizer builds'
# tests, tests/CMakeLists.txt) they run fewer of them, each path still
# crossed (docs/architecture.md "Tests"); otherwise every case.
test_quick() { [ -n "${RVT_TEST_QUICK:-}" ] && [ "$RVT_TEST_QUICK" != 0 ]; }
# quick_turn K J N: whether case J (0..N-1) of the K-th item runs: always,
# or when quick only case K mod N, so that items 0, 1, 2, ... take the
# cases in turn and N items or more cross every case.
quick_turn() { ! test_quick || [ $(($1 % $3)) = "$2" ]; }
