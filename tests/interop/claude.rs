//! Interop with the real claude: see the module docs of each test.
