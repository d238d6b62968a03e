//! Interop with the real ao: see the module docs of each test.
