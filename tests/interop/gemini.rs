//! Interop with the real gemini: see the module docs of each test.
