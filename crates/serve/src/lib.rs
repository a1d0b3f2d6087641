//! mydesign-docs' MCP server ([`serve`]): stdio and streamable HTTP transports and the tools, answering from the
//! reader half (`mydesign-docs-reader`) only. Never compiles, parses Markdown or tokenizes.
#![deny(missing_docs)]

use mydesign_docs_reader::{budget, diff, read, render, search};

pub mod serve;
