//! The design tokens of a set (format 12): one [`DesignTokens`] frame in `manifest.bundle`, under
//! [`super::keys::DESIGN_TOKENS`]. A set of format 11 has none and answers with an empty list.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Every design token of a set, in the order the compiler read them (by file, then line), with each row's tokens.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DesignTokens {
    /// The tokens.
    pub tokens: Vec<DesignToken>,
    /// Per token: the tokens (tiktoken's, in the set's encoding) of its row in its larger form, the text line or
    /// the JSON object with the comma after it, counted by the compiler with the reader's row renderer: lists of
    /// tokens are cut by these, exactly.
    pub row_tokens: Vec<u32>,
}

/// Where a token was written: the source form its name is spelled in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum TokenSource {
    /// A CSS custom property (`--semi-color-primary`).
    #[default]
    CssVariable,
    /// A SCSS variable (`$color-primary`).
    Scss,
    /// A Less variable (`@primary-6`).
    Less,
    /// A path in a TypeScript/JavaScript theme object (`colors.gray.50`).
    Js,
    /// A DTCG JSON token (`color.blue.500`).
    Dtcg,
    /// A row of a "CSS Variables" / "Design Token" table of a component's document.
    Documented,
}

/// What kind of value a token holds, from its value when it reads as one, else from its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum TokenType {
    /// A colour.
    Color,
    /// A length (sizes, spacing, radii, widths, font sizes).
    Dimension,
    /// A font family or weight.
    Font,
    /// A box or text shadow.
    Shadow,
    /// A duration.
    Duration,
    /// A timing function.
    Easing,
    /// A bare number (z-index, opacity, line height).
    Number,
    /// Anything else (borders, keywords, gradients).
    Other,
}

impl TokenType {
    /// Every type, in order.
    pub const ALL: [TokenType; 8] = [
        TokenType::Color,
        TokenType::Dimension,
        TokenType::Font,
        TokenType::Shadow,
        TokenType::Duration,
        TokenType::Easing,
        TokenType::Number,
        TokenType::Other,
    ];

    /// Its name as written in answers and asked for with `--type`.
    pub fn name(self) -> &'static str {
        match self {
            TokenType::Color => "color",
            TokenType::Dimension => "dimension",
            TokenType::Font => "font",
            TokenType::Shadow => "shadow",
            TokenType::Duration => "duration",
            TokenType::Easing => "easing",
            TokenType::Number => "number",
            TokenType::Other => "other",
        }
    }

    /// The type named `name` (case-insensitive; `colour`, `size`, `spacing`, `radius`, `length` accepted).
    pub fn from_name(name: &str) -> Option<TokenType> {
        let n = name.trim().to_ascii_lowercase();
        let alias = match n.as_str() {
            "colour" | "colors" | "colours" => "color",
            "size" | "sizes" | "spacing" | "radius" | "radii" | "length" => "dimension",
            "fonts" | "typography" => "font",
            "shadows" => "shadow",
            "time" | "motion" => "duration",
            other => other,
        };
        TokenType::ALL.into_iter().find(|t| t.name() == alias)
    }
}

/// One design token. (Every field is written, none skipped when empty: bundles store structs as MessagePack arrays,
/// whose fields are found by position.)
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DesignToken {
    /// The name as written in its source (`--semi-color-primary`, `$color-button_primary-bg-default`,
    /// `@primary-6`, `colors.gray.50`).
    pub name: String,
    /// Other names of the same token (a documented variable's global name, a Chakra path's CSS variable).
    pub aliases: Vec<String>,
    /// The form it was written in.
    pub source: TokenSource,
    /// What kind of value it holds.
    #[serde(rename = "type")]
    pub kind: TokenType,
    /// True for a semantic token (its value names another token, or it was declared semantic), false for a
    /// palette (literal) token.
    pub semantic: bool,
    /// The component it belongs to (its key), `None` for a global token.
    pub component: Option<String>,
    /// Its value per mode (one entry with mode `""` when it has no modes).
    pub values: Vec<ModeValue>,
    /// Its description, when the source gives one (a trailing comment, `description`, `$description`, a table
    /// cell).
    pub description: String,
    /// Repository-relative path of the file it is written in.
    pub file: String,
    /// 1-based line of its declaration.
    pub line: u32,
    /// The other places that declare it with the same name and values (`file:line`: a compiled copy of a theme,
    /// a second package's preset), in file order (format 13): one token, every source.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also_in: Vec<String>,
}

/// A token's value in one mode (theme).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ModeValue {
    /// The mode (`light`, `dark`, a theme name), `""` for the only value.
    pub mode: String,
    /// The value as written.
    pub written: String,
    /// The value with the references to other tokens of the set replaced, when they all resolve; `None` when one
    /// does not (a variable of a package not in the input, a function computed at run time): the token is then
    /// listed with its expression and "unresolved".
    pub resolved: Option<String>,
    /// The resolved value normalised for comparison (`crate::design_value::normalize`: `#rrggbbaa`, `12px`,
    /// `200ms`), when it is one of those kinds.
    pub normalized: Option<String>,
}
