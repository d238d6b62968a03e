//! Interop with the real maestro: see the module docs of each test.
