//! What the language server knows about one file's names: the declarations of every module
//! (parameters, variables, DEFINEs, named exits) and which declaration a name under the cursor
//! refers to.
//!
//! Built from the parse tree alone ([`crate::syntax::ast::Program`]), so it works while the file
//! has semantic errors (and on the part of the file that parsed when it has syntax errors).
//! Resolution follows NuSMV's scoping as far as the parse tree shows it: a name in a module
//! body is that module's parameter, variable, DEFINE or exit; `a.b` looks `b` up in the module
//! that the variable `a` instantiates (`a : m(…)`), at any depth; a module name (in an instance
//! type, a `CALL` target) is the module. Array elements (`a[i].b`) resolve through the array's
//! element type. Parameters have no declared type, so `p.b` through a parameter is not resolved.

use crate::source::Span;
use crate::syntax::ast::{Expr, ExprKind, Ident, Module, Program, Section, TypeSpec, VarKind};

/// What a declaration is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DeclKind {
    Module,
    Parameter,
    Variable(VarKind),
    Define,
    Exit,
}

/// One declared name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Decl {
    pub(crate) name: String,
    pub(crate) kind: DeclKind,
    /// The name where it is declared (go-to-definition's target).
    pub(crate) name_span: Span,
    /// The whole declaration (`x : 0..3`, `d := e`, the module header to its end).
    pub(crate) span: Span,
    /// The module whose body declares it (`None` for modules).
    pub(crate) module: Option<usize>,
    /// For a variable of module type (or an array of them): the module's name.
    pub(crate) instance_of: Option<String>,
}

/// The declarations of a file, by module.
#[derive(Clone, Debug, Default)]
pub(crate) struct Index {
    /// Every declaration; modules first, in file order, then each module's members.
    pub(crate) decls: Vec<Decl>,
}

impl Index {
    pub(crate) fn of(program: &Program) -> Index {
        let mut decls: Vec<Decl> = (program.modules.iter())
            .map(|m| Decl { name: m.name.name.clone(), kind: DeclKind::Module, name_span: m.name.span, span: m.span, module: None, instance_of: None })
            .collect();
        for (i, m) in program.modules.iter().enumerate() {
            members(m, i, &mut decls);
        }
        Index { decls }
    }

    pub(crate) fn module(&self, name: &str) -> Option<&Decl> {
        self.decls.iter().find(|d| d.kind == DeclKind::Module && d.name == name)
    }

    fn module_index(&self, name: &str) -> Option<usize> {
        self.decls.iter().position(|d| d.kind == DeclKind::Module && d.name == name)
    }

    /// The member `name` of the `module`-th module.
    fn member(&self, module: usize, name: &str) -> Option<&Decl> {
        self.decls.iter().find(|d| d.module == Some(module) && d.name == name)
    }

    /// The members of the `module`-th module, in declaration order.
    pub(crate) fn members(&self, module: usize) -> impl Iterator<Item = &Decl> {
        self.decls.iter().filter(move |d| d.module == Some(module))
    }

    /// The declaration the name at byte `offset` refers to (a declaration's own name refers to
    /// itself).
    pub(crate) fn resolve_at(&self, program: &Program, offset: u32) -> Option<&Decl> {
        let inside = |s: Span| s.start <= offset && offset <= s.end;
        if let Some(d) = self.decls.iter().find(|d| inside(d.name_span)) {
            return Some(d);
        }
        let (mi, module) = program.modules.iter().enumerate().find(|(_, m)| inside(m.span))?;
        match reference_in_module(module, offset)? {
            Reference::Module(name) => self.module(&name),
            Reference::Expr(expr) => self.resolve_expr(mi, expr, offset),
        }
    }

    /// The declaration of the part of `expr` (a name or a dotted path) under `offset`.
    fn resolve_expr(&self, module: usize, expr: &Expr, offset: u32) -> Option<&Decl> {
        match &expr.kind {
            ExprKind::Name(n) => self.member(module, n).or_else(|| self.module(n)),
            ExprKind::Dot(base, field) => {
                if field.span.start <= offset && offset <= field.span.end {
                    let owner = self.instance_module(module, base)?;
                    self.member(owner, &field.name)
                } else {
                    self.resolve_expr(module, base, offset)
                }
            }
            ExprKind::Index(base, _) => self.resolve_expr(module, base, offset),
            _ => None,
        }
    }

    /// The module that the instance `expr` (`a`, `a.b`, `a[3]`) belongs to, seen from `module`.
    fn instance_module(&self, module: usize, expr: &Expr) -> Option<usize> {
        let decl = match &expr.kind {
            ExprKind::Name(n) => self.member(module, n)?,
            ExprKind::Dot(base, field) => self.member(self.instance_module(module, base)?, &field.name)?,
            ExprKind::Index(base, _) => return self.instance_module(module, base),
            _ => return None,
        };
        self.module_index(decl.instance_of.as_deref()?)
    }
}

fn members(m: &Module, index: usize, decls: &mut Vec<Decl>) {
    let mut push = |name: &Ident, kind: DeclKind, span: Span, instance_of: Option<String>| {
        decls.push(Decl { name: name.name.clone(), kind, name_span: name.span, span, module: Some(index), instance_of });
    };
    for p in &m.params {
        push(p, DeclKind::Parameter, p.span, None);
    }
    for section in &m.sections {
        match section {
            Section::Var { kind, decls, .. } => {
                for d in decls {
                    push(&d.name, DeclKind::Variable(*kind), d.span, instance_type(&d.ty));
                }
            }
            Section::Define { defs, .. } => defs.iter().for_each(|d| push(&d.name, DeclKind::Define, d.span, None)),
            Section::Exit { exits, .. } => exits.iter().for_each(|e| push(&e.name, DeclKind::Exit, e.span, None)),
            _ => {}
        }
    }
}

/// The module of an instance type, through arrays.
fn instance_type(ty: &TypeSpec) -> Option<String> {
    match ty {
        TypeSpec::Instance { module, .. } => Some(module.name.clone()),
        TypeSpec::Array { elem, .. } => instance_type(elem),
        _ => None,
    }
}

/// What is under the cursor in a module body.
enum Reference<'a> {
    /// A module name in an instance type or a `CALL` target.
    Module(String),
    /// The innermost name or dotted path containing the cursor.
    Expr(&'a Expr),
}

fn reference_in_module(m: &Module, offset: u32) -> Option<Reference<'_>> {
    let inside = |s: Span| s.start <= offset && offset <= s.end;
    let mut exprs: Vec<&Expr> = vec![];
    for section in &m.sections {
        match section {
            Section::Var { decls, .. } => {
                for d in decls {
                    if let Some(r) = in_type(&d.ty, offset, &mut exprs) {
                        return Some(r);
                    }
                }
            }
            Section::Define { defs, .. } => exprs.extend(defs.iter().map(|d| &d.expr)),
            Section::Assign { assigns, .. } => assigns.iter().for_each(|a| exprs.extend([&a.target, &a.value])),
            Section::Init { expr, .. } | Section::Trans { expr, .. } | Section::Invar { expr, .. } | Section::Fairness { expr, .. } => exprs.push(expr),
            Section::Compassion { p, q, .. } => exprs.extend([p, q]),
            Section::Spec(spec) => exprs.extend(spec.formulas()),
            Section::Call { calls, .. } => {
                for c in calls {
                    if inside(c.target.span) {
                        return Some(Reference::Module(c.target.name.clone()));
                    }
                    exprs.push(&c.condition);
                }
            }
            Section::Exit { exits, .. } => exprs.extend(exits.iter().map(|e| &e.condition)),
            Section::Constants { .. } => {}
        }
    }
    exprs.into_iter().find(|e| inside(e.span)).and_then(|e| innermost_path(e, offset)).map(Reference::Expr)
}

/// Module names and expressions (bounds, arguments) inside a type.
fn in_type<'a>(ty: &'a TypeSpec, offset: u32, exprs: &mut Vec<&'a Expr>) -> Option<Reference<'a>> {
    match ty {
        TypeSpec::Instance { module, args, .. } => {
            if module.span.start <= offset && offset <= module.span.end {
                return Some(Reference::Module(module.name.clone()));
            }
            exprs.extend(args);
            None
        }
        TypeSpec::Array { lo, hi, elem, .. } => {
            exprs.extend([lo, hi]);
            in_type(elem, offset, exprs)
        }
        TypeSpec::Range { lo, hi, .. } => {
            exprs.extend([lo, hi]);
            None
        }
        TypeSpec::Word { width, .. } => {
            exprs.push(width);
            None
        }
        TypeSpec::Boolean(_) | TypeSpec::Enum { .. } | TypeSpec::Unsupported { .. } => None,
    }
}

/// The innermost name or dotted path (`a`, `a.b`, `a[i].b`) of `e` containing `offset`, looking
/// through operators; for `a[i]` with the cursor in `i`, the path in `i`.
fn innermost_path(e: &Expr, offset: u32) -> Option<&Expr> {
    let inside = |x: &Expr| x.span.start <= offset && offset <= x.span.end;
    let mut current = e;
    loop {
        let children: Vec<&Expr> = match &current.kind {
            ExprKind::Name(_) => return Some(current),
            ExprKind::Dot(base, field) => {
                if field.span.start <= offset && offset <= field.span.end {
                    return Some(current);
                }
                vec![base]
            }
            ExprKind::Index(base, index) => {
                if inside(index) {
                    vec![index]
                } else {
                    vec![base]
                }
            }
            ExprKind::BitSelect(a, b, c) | ExprKind::Ite(a, b, c) => vec![a, b, c],
            ExprKind::Unary(_, a) | ExprKind::Next(a) | ExprKind::Init(a) | ExprKind::Ctl(_, a) => vec![a],
            ExprKind::Binary(_, a, b) | ExprKind::Range(a, b) | ExprKind::Until { lhs: a, rhs: b, .. } => vec![a, b],
            ExprKind::Case(branches) => branches.iter().flat_map(|b| [&b.condition, &b.value]).collect(),
            ExprKind::Set(xs) | ExprKind::Array(xs) | ExprKind::Call(_, xs) | ExprKind::Ltl(_, xs) => xs.iter().collect(),
            ExprKind::Bool(_) | ExprKind::Int(_) | ExprKind::Word { .. } | ExprKind::Error => return None,
        };
        current = children.into_iter().find(|c| inside(c))?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceFile;

    const TEXT: &str = "MODULE cell(left)\nVAR v : boolean;\nDEFINE out := v & left;\n\nMODULE main\nVAR c : array 0..1 of cell(TRUE);\n    d : cell(c[0].out);\n    n : 0..3;\nSPEC AG (d.out -> n < 3)\n";

    fn at(text: &str, needle: &str, nth: usize) -> u32 {
        let mut from = 0;
        for _ in 0..nth {
            from = text[from..].find(needle).map(|i| from + i + 1).expect("occurrence");
        }
        (from + text[from..].find(needle).expect("needle")) as u32
    }

    fn resolved(needle: &str, nth: usize) -> Option<(String, DeclKind)> {
        let file = SourceFile::new("m.smv", TEXT);
        let (program, _) = crate::syntax::parse(&file);
        let index = Index::of(&program);
        index.resolve_at(&program, at(TEXT, needle, nth)).map(|d| (d.name.clone(), d.kind))
    }

    #[test]
    fn names_resolve_to_their_declarations() {
        assert_eq!(resolved("out", 1), Some(("out".into(), DeclKind::Define)), "c[0].out through the array's element module");
        assert_eq!(resolved("out", 2), Some(("out".into(), DeclKind::Define)), "d.out in the spec");
        assert_eq!(resolved("d.out", 0), Some(("d".into(), DeclKind::Variable(VarKind::State))));
        assert_eq!(resolved("n <", 0), Some(("n".into(), DeclKind::Variable(VarKind::State))));
        assert_eq!(resolved("left;", 0), Some(("left".into(), DeclKind::Parameter)));
        assert_eq!(resolved("cell(TRUE)", 0), Some(("cell".into(), DeclKind::Module)));
        assert_eq!(resolved("main", 0), Some(("main".into(), DeclKind::Module)), "a declaration's own name");
        assert_eq!(resolved("AG", 0), None, "an operator is no name");
    }

    #[test]
    fn members_are_listed_per_module() {
        let file = SourceFile::new("m.smv", TEXT);
        let (program, _) = crate::syntax::parse(&file);
        let index = Index::of(&program);
        let names: Vec<&str> = index.members(1).map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["c", "d", "n"]);
        assert_eq!(index.members(1).next().and_then(|d| d.instance_of.clone()), Some("cell".into()));
    }
}
