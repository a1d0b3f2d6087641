//! The one walk of a parsed source's tree that finds every named function (with its qualified name and span) and
//! the outermost bodies the skeleton elides. An explicit stack, no recursion: deep input cannot overflow.

use std::collections::HashSet;

use tree_sitter::{Node, TreeCursor};

use super::{Function, FunctionKind, MAX_SCOPE_DEPTH, line_of, node_text};
use crate::model::{FunctionKinds, FunctionMeta};

/// Call wrappers whose result is *not* the wrapped function, so `const x = useMemo(() => …)` is a value,
/// not a function (see [`classify_value`]).
const NON_FUNCTION_WRAPPERS: &[&str] =
    &["useMemo", "useState", "useReducer", "useRef", "setTimeout", "setInterval", "requestAnimationFrame"];

/// How deep `memo(forwardRef(...))`-style wrapper calls are followed.
const MAX_WRAPPER_DEPTH: usize = 4;

/// Context handed from a node to one of its children during the walk.
#[derive(Clone, Copy, Default)]
struct Ctx<'t> {
    /// When set, the span of a function defined by this child runs from `.0`'s start to `.1`'s end
    /// (an `export` wrapper, a single-declarator `const`, an expression statement, decorators).
    outer: Option<(Node<'t>, Node<'t>)>,
    /// The child is a member of a class body (decides `Constructor` and fields).
    in_class: bool,
    /// The child is the block body of a function-like node (a skeleton candidate).
    is_body: bool,
}

enum Step<'t> {
    Enter(Node<'t>, Ctx<'t>),
    PopScope,
    LeaveBody,
}

/// What a value expression (after unwrapping parentheses and type assertions) is.
enum Value<'t> {
    /// A function or arrow (possibly inside a wrapper call such as `forwardRef(...)`).
    Func(Node<'t>),
    /// A class expression.
    Class(Node<'t>),
    /// An object literal.
    Object,
    Other,
}

pub(super) struct Walk<'a, 't> {
    text: &'a str,
    pub(super) functions: Vec<Function>,
    /// Byte ranges of the outermost function bodies, in walk order.
    pub(super) bodies: Vec<(usize, usize)>,
    /// Enclosing scope names.
    scope: Vec<String>,
    /// Function and class nodes already named by their holder (variable, field, property, export).
    claimed: HashSet<usize>,
    /// How many replaced bodies enclose the current node.
    in_body: usize,
    stack: Vec<Step<'t>>,
    children: Vec<(Node<'t>, Ctx<'t>)>,
    /// A `.vue` file's scripts: a default-exported options object names its scope by its `name` (see
    /// [`component_name`]).
    vue: bool,
    /// Functions not indexed because [`MAX_SCOPE_DEPTH`] scopes enclose them.
    pub(super) too_deep: usize,
    /// The component the file's name names (see [`super::analyze_file`]).
    pub(super) file_component: Option<String>,
}

impl<'a, 't> Walk<'a, 't> {
    pub(super) fn new(text: &'a str, vue: bool) -> Self {
        Walk {
            text,
            functions: Vec::new(),
            bodies: Vec::new(),
            scope: Vec::new(),
            claimed: HashSet::new(),
            in_body: 0,
            stack: Vec::new(),
            children: Vec::new(),
            vue,
            too_deep: 0,
            file_component: None,
        }
    }

    fn text(&self, node: Node) -> &'a str {
        node_text(self.text, node)
    }

    pub(super) fn run(&mut self, root: Node<'t>) {
        let mut cursor = root.walk();
        self.stack.push(Step::Enter(root, Ctx::default()));
        while let Some(step) = self.stack.pop() {
            match step {
                Step::PopScope => {
                    self.scope.pop();
                }
                Step::LeaveBody => self.in_body = self.in_body.saturating_sub(1),
                Step::Enter(node, ctx) => self.enter(node, ctx, &mut cursor),
            }
        }
    }

    fn enter(&mut self, node: Node<'t>, ctx: Ctx<'t>, cursor: &mut TreeCursor<'t>) {
        if !node.is_named() {
            return;
        }
        if ctx.is_body {
            if self.in_body == 0 {
                self.bodies.push((node.start_byte(), node.end_byte()));
            }
            self.in_body += 1;
            self.stack.push(Step::LeaveBody);
        }
        if let Some(name) = self.visit(node, ctx)
            && self.scope.len() < MAX_SCOPE_DEPTH
        {
            self.scope.push(name);
            self.stack.push(Step::PopScope);
        }
        self.push_children(node, ctx, cursor);
    }

    /// Indexes `node` if it names a function; returns the scope name it opens for its subtree.
    fn visit(&mut self, node: Node<'t>, ctx: Ctx<'t>) -> Option<String> {
        let claimed = self.claimed.contains(&node.id());
        match node.kind() {
            "function_declaration" | "generator_function_declaration" => {
                let name = match node.child_by_field_name("name") {
                    Some(n) => self.text(n).to_string(),
                    None => "default".to_string(),
                };
                let kind = if node.kind() == "function_declaration" {
                    FunctionKind::Function
                } else {
                    FunctionKind::Generator
                };
                self.index(&name, kind, node, ctx);
                Some(name)
            }
            "function_expression" | "generator_function" if !claimed => {
                // A named function expression held by nothing, e.g. a named callback.
                let name = self.text(node.child_by_field_name("name")?).to_string();
                let kind = function_kind(node);
                self.index(&name, kind, node, ctx);
                Some(name)
            }
            "class_declaration" | "abstract_class_declaration" | "class" if !claimed => {
                node.child_by_field_name("name").map(|n| self.text(n).to_string())
            }
            "function_signature" => {
                // An overload head or `declare function f(): T;`.
                let name = self.text(node.child_by_field_name("name")?).to_string();
                self.index(&name, FunctionKind::Signature, node, ctx);
                None
            }
            "method_signature" | "abstract_method_signature" => {
                let name = property_name(self.text, node.child_by_field_name("name")?);
                self.index(&name, FunctionKind::Signature, node, ctx);
                None
            }
            "interface_declaration" => node.child_by_field_name("name").map(|n| self.text(n).to_string()),
            "internal_module" | "module" => {
                let name = property_name(self.text, node.child_by_field_name("name")?);
                Some(name)
            }
            "method_definition" => {
                let name_node = node.child_by_field_name("name")?;
                let name = property_name(self.text, name_node);
                let kind = match accessor(node, name_node) {
                    Some("get") => FunctionKind::Getter,
                    Some("set") => FunctionKind::Setter,
                    _ if ctx.in_class && name == "constructor" => FunctionKind::Constructor,
                    _ => FunctionKind::Method,
                };
                self.index(&name, kind, node, ctx);
                Some(name)
            }
            "public_field_definition" | "field_definition" => {
                let name_node = node.child_by_field_name("name").or_else(|| node.child_by_field_name("property"))?;
                let name = property_name(self.text, name_node);
                let value = node.child_by_field_name("value")?;
                self.holder(name, FunctionKind::ClassProperty, value, node, ctx)
            }
            "pair" => {
                let name = property_name(self.text, node.child_by_field_name("key")?);
                let value = node.child_by_field_name("value")?;
                self.holder(name, FunctionKind::ObjectProperty, value, node, ctx)
            }
            "variable_declarator" => {
                let name_node = node.child_by_field_name("name")?;
                if name_node.kind() != "identifier" {
                    return None;
                }
                let name = self.text(name_node).to_string();
                let value = node.child_by_field_name("value")?;
                self.holder(name, FunctionKind::Arrow, value, node, ctx)
            }
            "assignment_expression" => {
                let chain = assignment_target(self.text, node.child_by_field_name("left")?)?;
                let value = node.child_by_field_name("right")?;
                let Value::Func(func) = classify_value(self.text, value) else {
                    return None;
                };
                self.claimed.insert(func.id());
                let name = chain.rsplit('.').next().unwrap_or(&chain).to_string();
                let qualified = self.qualify(&chain);
                self.push_function(name, qualified, function_kind(func), node, ctx);
                Some(chain)
            }
            "export_statement" => {
                // `export default <expression>`: the function or class is named "default";
                // `export default function () {}` is a declaration by the language, so kind Function.
                let value = node.child_by_field_name("value")?;
                let kind = match value.kind() {
                    "function_expression" => FunctionKind::Function,
                    _ => FunctionKind::Arrow,
                };
                let name = match component_name(self.text, value, self.vue) {
                    Some(ComponentName::Literal(name)) => name,
                    Some(ComponentName::Unknown) => self.file_component.clone().unwrap_or_else(|| "default".into()),
                    None => "default".to_string(),
                };
                self.holder(name, kind, value, node, Ctx { outer: Some((node, node)), ..ctx })
            }
            _ => None,
        }
    }

    /// A named holder (variable, class field, object property, default export) of `value`: indexes a
    /// function value (claiming the function node), and opens a scope for a function, class or object.
    /// `kind` is the kind for a function value, except that variables and default exports
    /// (`FunctionKind::Arrow` passed) take the function's own kind.
    fn holder(
        &mut self,
        name: String,
        kind: FunctionKind,
        value: Node<'t>,
        node: Node<'t>,
        ctx: Ctx<'t>,
    ) -> Option<String> {
        match classify_value(self.text, value) {
            Value::Func(func) => {
                self.claimed.insert(func.id());
                let kind = if kind == FunctionKind::Arrow { function_kind(func) } else { kind };
                self.index(&name, kind, node, ctx);
                Some(name)
            }
            Value::Class(class) => {
                self.claimed.insert(class.id());
                Some(name)
            }
            Value::Object => Some(name),
            Value::Other => None,
        }
    }

    fn qualify(&self, name: &str) -> String {
        let mut q = String::new();
        for s in &self.scope {
            q.push_str(s);
            q.push('.');
        }
        q.push_str(name);
        q
    }

    fn index(&mut self, name: &str, kind: FunctionKind, node: Node<'t>, ctx: Ctx<'t>) {
        let qualified = self.qualify(name);
        self.push_function(name.to_string(), qualified, kind, node, ctx);
    }

    fn push_function(&mut self, name: String, qualified: String, kind: FunctionKind, node: Node<'t>, ctx: Ctx<'t>) {
        if self.scope.len() >= MAX_SCOPE_DEPTH {
            self.too_deep += 1;
            return;
        }
        let (first, last) = ctx.outer.unwrap_or((node, node));
        let start = first.start_byte().min(node.start_byte());
        let end = last.end_byte().max(node.end_byte());
        let start_line = line_of(first.start_position().row.min(node.start_position().row));
        let end_pos = last.end_position().max(node.end_position());
        // A span ending just after a newline ends on the previous line.
        let end_row = if end_pos.column == 0 && end > start { end_pos.row.saturating_sub(1) } else { end_pos.row };
        let mut cursor = node.walk();
        let is_static = ctx.in_class && node.children(&mut cursor).any(|c| c.kind() == "static" && !c.is_named());
        let meta = FunctionMeta {
            name,
            qualified,
            kind: FunctionKinds::one(kind),
            start_line,
            end_line: line_of(end_row).max(start_line),
            start_byte: u32::try_from(start).unwrap_or(u32::MAX),
            end_byte: u32::try_from(end).unwrap_or(u32::MAX),
            tokens: 0,
        };
        self.functions.push(Function { meta, is_static });
    }

    /// Pushes the named children of `node` (in reverse, so they pop in source order) with their context.
    fn push_children(&mut self, node: Node<'t>, ctx: Ctx<'t>, cursor: &mut TreeCursor<'t>) {
        if node.child_count() == 0 {
            return;
        }
        let kind = node.kind();
        let is_function = matches!(
            kind,
            "function_declaration"
                | "generator_function_declaration"
                | "function_expression"
                | "generator_function"
                | "arrow_function"
                | "method_definition"
        );
        let single_declarator = matches!(kind, "lexical_declaration" | "variable_declaration")
            && node.named_children(cursor).filter(|c| c.kind() == "variable_declarator").count() == 1;
        let in_class = kind == "class_body";
        let outer_here = Some(ctx.outer.unwrap_or((node, node)));

        let mut children = std::mem::take(&mut self.children);
        children.clear();
        cursor.reset(node);
        let mut decorator: Option<Node<'t>> = None;
        if cursor.goto_first_child() {
            loop {
                let child = cursor.node();
                let field = cursor.field_name();
                if child.is_named() {
                    let mut c = Ctx::default();
                    if is_function && field == Some("body") && child.kind() == "statement_block" {
                        c.is_body = true;
                    }
                    match kind {
                        "export_statement" if field == Some("declaration") => c.outer = outer_here,
                        "ambient_declaration" if child.kind() == "function_signature" => c.outer = outer_here,
                        "lexical_declaration" | "variable_declaration"
                            if single_declarator && child.kind() == "variable_declarator" =>
                        {
                            c.outer = outer_here;
                        }
                        "expression_statement" if child.kind() == "assignment_expression" => {
                            c.outer = outer_here;
                        }
                        "class_body" => {
                            c.in_class = in_class;
                            // TypeScript puts method decorators before the member, as siblings.
                            match child.kind() {
                                "decorator" => {
                                    decorator.get_or_insert(child);
                                }
                                "comment" => {}
                                _ => c.outer = decorator.take().map(|d| (d, child)),
                            }
                        }
                        _ => {}
                    }
                    children.push((child, c));
                }
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
        }
        for &(child, c) in children.iter().rev() {
            self.stack.push(Step::Enter(child, c));
        }
        self.children = children;
    }
}

/// The name a default-exported Vue component gives itself: the string `name` of `defineComponent({ name: 'Table',
/// … })` (in any script), or of a plain options object `{ name: 'Table', … }` in a `.vue` file (`vue`), so its
/// functions are `Table.setup`, `Table.setup.onTbodyScroll` rather than `default.setup`;
/// [`ComponentName::Unknown`] for a component whose name is not a string literal (`name,` from a variable: not
/// known without running the code) or that has none; `None` when `value` is no component.
fn component_name(text: &str, value: Node, vue: bool) -> Option<ComponentName> {
    let value = unwrap_expression(value);
    let object = match value.kind() {
        "object" if vue => value,
        "call_expression" => {
            let callee = value.child_by_field_name("function")?;
            let callee = match callee.kind() {
                "member_expression" => callee.child_by_field_name("property")?,
                _ => callee,
            };
            if node_text(text, callee) != "defineComponent" {
                return None;
            }
            let args = value.child_by_field_name("arguments")?;
            let mut cursor = args.walk();
            let first = args.named_children(&mut cursor).find(|c| c.kind() != "comment")?;
            let first = unwrap_expression(first);
            (first.kind() == "object").then_some(first)?
        }
        _ => return None,
    };
    let mut cursor = object.walk();
    let literal = object
        .named_children(&mut cursor)
        .find(|p| p.kind() == "pair" && p.child_by_field_name("key").is_some_and(|k| property_name(text, k) == "name"))
        .and_then(|pair| pair.child_by_field_name("value"))
        .filter(|v| v.kind() == "string")
        .map(|v| property_name(text, v))
        .filter(|name| !name.is_empty() && !name.contains(['.', '\n']));
    Some(literal.map_or(ComponentName::Unknown, ComponentName::Literal))
}

/// What [`component_name`] found.
enum ComponentName {
    /// `name: 'Table'`.
    Literal(String),
    /// A component with no string `name`.
    Unknown,
}

/// The kind of a function node when it is named by a variable, assignment or default export.
fn function_kind(func: Node) -> FunctionKind {
    match func.kind() {
        "arrow_function" => FunctionKind::Arrow,
        "generator_function" => FunctionKind::Generator,
        _ => FunctionKind::FunctionExpression,
    }
}

/// `get` / `set` if the method is an accessor (the keyword comes before the name).
fn accessor(method: Node, name: Node) -> Option<&'static str> {
    let mut cursor = method.walk();
    for child in method.children(&mut cursor) {
        if child.id() == name.id() {
            break;
        }
        match child.kind() {
            "get" if !child.is_named() => return Some("get"),
            "set" if !child.is_named() => return Some("set"),
            _ => {}
        }
    }
    None
}

/// A property, method or module name: identifiers as written, strings without their quotes, computed
/// names (`[Symbol.iterator]`) and numbers as their source text.
fn property_name(text: &str, node: Node) -> String {
    let raw = node_text(text, node);
    if node.kind() == "string"
        && let Some(inner) = raw.get(1..raw.len().saturating_sub(1))
    {
        return inner.to_string();
    }
    raw.to_string()
}

/// The dotted name of an assignment target made of identifiers and property accesses (`a.b.c`), with
/// a leading `this.` dropped; `None` for anything else (`a[i]`, destructuring).
fn assignment_target(text: &str, left: Node) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    let mut node = left;
    for _ in 0..64 {
        match node.kind() {
            "identifier" => {
                parts.push(node_text(text, node));
                break;
            }
            "this" => break,
            "member_expression" => {
                let prop = node.child_by_field_name("property")?;
                if !matches!(prop.kind(), "property_identifier" | "private_property_identifier") {
                    return None;
                }
                parts.push(node_text(text, prop));
                node = node.child_by_field_name("object")?;
            }
            _ => return None,
        }
    }
    if parts.is_empty() {
        return None;
    }
    parts.reverse();
    Some(parts.join("."))
}

/// Strips parentheses, `as`/`satisfies` assertions and `!`.
fn unwrap_expression(mut node: Node) -> Node {
    for _ in 0..16 {
        match node.kind() {
            "parenthesized_expression" | "as_expression" | "satisfies_expression" | "non_null_expression" => {
                let mut cursor = node.walk();
                let inner = node.named_children(&mut cursor).find(|c| c.kind() != "comment");
                match inner {
                    Some(inner) => node = inner,
                    None => return node,
                }
            }
            _ => return node,
        }
    }
    node
}

/// What a held value is. A call `wrapper(fn, ...)` whose first argument is a function counts as that
/// function when the callee is a plain identifier or `React.x` and not in [`NON_FUNCTION_WRAPPERS`]:
/// this indexes `const Button = forwardRef((props, ref) => ...)`, `memo(...)`, `useCallback(...)`,
/// `debounce(...)` under the variable's name.
fn classify_value<'t>(text: &str, value: Node<'t>) -> Value<'t> {
    let mut node = unwrap_expression(value);
    for _ in 0..=MAX_WRAPPER_DEPTH {
        match node.kind() {
            "function_expression" | "generator_function" | "arrow_function" => {
                return Value::Func(node);
            }
            "class" => return Value::Class(node),
            "object" => return Value::Object,
            "call_expression" => match wrapped_argument(text, node) {
                Some(arg) => node = unwrap_expression(arg),
                None => return Value::Other,
            },
            _ => return Value::Other,
        }
    }
    Value::Other
}

fn wrapped_argument<'t>(text: &str, call: Node<'t>) -> Option<Node<'t>> {
    let callee = call.child_by_field_name("function")?;
    let callee_name = match callee.kind() {
        "identifier" => node_text(text, callee),
        "member_expression" => {
            let object = callee.child_by_field_name("object")?;
            if node_text(text, object) != "React" {
                return None;
            }
            node_text(text, callee.child_by_field_name("property")?)
        }
        _ => return None,
    };
    if NON_FUNCTION_WRAPPERS.contains(&callee_name) {
        return None;
    }
    let args = call.child_by_field_name("arguments")?;
    if args.kind() != "arguments" {
        return None;
    }
    let mut cursor = args.walk();
    args.named_children(&mut cursor).find(|c| c.kind() != "comment")
}
