//! A compact, readable rendering of the AST for golden parser tests:
//! declarations and statements one per line (indented by nesting),
//! expressions as prefix S-expressions, declarators as a derivation list
//! in `Declarator.derived` order.

use cfront::ast::*;
use std::fmt::Write as _;

pub fn unit(unit: &TranslationUnit) -> String {
    let mut out = Dumper { out: String::new(), indent: 0 };
    for item in &unit.items {
        out.external(item);
    }
    out.out
}

struct Dumper {
    out: String,
    indent: usize,
}

impl Dumper {
    fn line(&mut self, text: &str) {
        let _ = writeln!(self.out, "{}{text}", "  ".repeat(self.indent));
    }

    fn external(&mut self, item: &ExternalDecl) {
        match item {
            ExternalDecl::Function(f) => {
                let mut head = format!("fn {} {}", specs(&f.specs), declarator(&f.declarator));
                for kr in &f.kr_decls {
                    let _ = write!(head, " kr({})", declaration(kr));
                }
                self.line(&head);
                self.block_items(&f.body);
            }
            ExternalDecl::Declaration(d) => self.line(&format!("decl {}", declaration(d))),
            ExternalDecl::StaticAssert(sa) => self.line(&static_assert(sa)),
            ExternalDecl::Asm(text, _) => self.line(&format!("asm {text:?}")),
        }
    }

    fn block_items(&mut self, block: &Block) {
        self.indent += 1;
        for stmt in &block.items {
            self.stmt(stmt);
        }
        self.indent -= 1;
    }

    fn nested(&mut self, head: &str, body: &Stmt) {
        self.line(head);
        self.indent += 1;
        self.stmt(body);
        self.indent -= 1;
    }

    fn stmt(&mut self, stmt: &Stmt) {
        match &stmt.kind {
            StmtKind::Compound(block) => {
                self.line("{");
                self.block_items(block);
                self.line("}");
            }
            StmtKind::Decl(d) => self.line(&format!("decl {}", declaration(d))),
            StmtKind::LocalLabels(names) => self.line(&format!("local labels {}", names.join(", "))),
            StmtKind::NestedFunction(f) => {
                self.line(&format!("nested function {}", f.declarator.name.as_deref().unwrap_or("?")));
                self.block_items(&f.body);
            }
            StmtKind::StaticAssert(sa) => self.line(&static_assert(sa)),
            StmtKind::Expr(None) => self.line(";"),
            StmtKind::Expr(Some(e)) => self.line(&format!("{};", expr(e))),
            StmtKind::If(c, t, e) => {
                self.nested(&format!("if {}", expr(c)), t);
                if let Some(e) = e {
                    self.nested("else", e);
                }
            }
            StmtKind::Switch(c, body) => self.nested(&format!("switch {}", expr(c)), body),
            StmtKind::While(c, body) => self.nested(&format!("while {}", expr(c)), body),
            StmtKind::DoWhile(body, c) => self.nested(&format!("do-while {}", expr(c)), body),
            StmtKind::For { init, cond, step, body } => {
                let init = match init {
                    ForInit::None => "-".to_string(),
                    ForInit::Expr(e) => expr(e),
                    ForInit::Decl(d) => format!("decl {}", declaration(d)),
                };
                let opt = |e: &Option<Expr>| e.as_ref().map_or("-".to_string(), expr);
                self.nested(&format!("for [{init}] [{}] [{}]", opt(cond), opt(step)), body);
            }
            StmtKind::Unrolled { bound, body } => {
                let bound = bound.map_or("full".to_string(), |n| n.to_string());
                self.nested(&format!("unroll {bound}"), body);
            }
            StmtKind::Goto(label) => self.line(&format!("goto {label}")),
            StmtKind::ComputedGoto(e) => self.line(&format!("goto *{}", expr(e))),
            StmtKind::Continue => self.line("continue"),
            StmtKind::Break => self.line("break"),
            StmtKind::Return(e) => self.line(&format!("return {}", e.as_ref().map_or("-".to_string(), expr))),
            StmtKind::Labeled(label, body) => self.nested(&format!("label {label}:"), body),
            StmtKind::Case(lo, hi, body) => {
                let head = match hi {
                    Some(hi) => format!("case {} ... {}:", expr(lo), expr(hi)),
                    None => format!("case {}:", expr(lo)),
                };
                self.nested(&head, body);
            }
            StmtKind::Default(body) => self.nested("default:", body),
            StmtKind::Asm(asm) => {
                let operands = |list: &[AsmOperand]| {
                    list.iter().map(|o| format!("{:?}{}", o.constraint, expr(&o.expr))).collect::<Vec<_>>().join(" ")
                };
                let volatile = if asm.is_volatile { " volatile" } else { "" };
                self.line(&format!(
                    "asm{volatile} {:?} out[{}] in[{}]",
                    asm.template,
                    operands(&asm.outputs),
                    operands(&asm.inputs)
                ));
            }
        }
    }
}

fn static_assert(sa: &StaticAssert) -> String {
    format!("static_assert {} {:?}", expr(&sa.cond), sa.message)
}

fn declaration(d: &Declaration) -> String {
    let mut text = specs(&d.specs);
    for (i, init_decl) in d.declarators.iter().enumerate() {
        text.push_str(if i == 0 { " : " } else { ", " });
        text.push_str(&declarator(&init_decl.declarator));
        if let Some(label) = &init_decl.asm_label {
            let _ = write!(text, " asm({label:?})");
        }
        if let Some(init) = &init_decl.init {
            let _ = write!(text, " = {}", initializer(init));
        }
    }
    text
}

fn specs(s: &DeclSpecs) -> String {
    let mut words: Vec<String> = Vec::new();
    if let Some(storage) = s.storage {
        words.push(format!("{storage:?}").to_lowercase());
    }
    for (flag, word) in [(s.thread_local, "thread_local"), (s.is_inline, "inline"), (s.is_noreturn, "noreturn")] {
        if flag {
            words.push(word.to_string());
        }
    }
    words.extend(qualifiers(&s.qualifiers));
    for align in &s.alignas {
        words.push(match align {
            AlignSpec::Type(t) => format!("alignas({})", type_name(t)),
            AlignSpec::Expr(e) => format!("alignas({})", expr(e)),
        });
    }
    words.push(type_spec(&s.ty));
    words.extend(attributes(&s.attrs));
    words.join(" ")
}

fn qualifiers(q: &Qualifiers) -> Vec<String> {
    [(q.is_const, "const"), (q.is_volatile, "volatile"), (q.is_restrict, "restrict"), (q.is_atomic, "atomic")]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, word)| word.to_string())
        .collect()
}

fn attributes(attrs: &[Attribute]) -> Vec<String> {
    attrs
        .iter()
        .map(|a| {
            if a.args.is_empty() {
                format!("@{}", a.name)
            } else {
                format!("@{}({})", a.name, a.args.iter().map(expr).collect::<Vec<_>>().join(", "))
            }
        })
        .collect()
}

fn type_spec(t: &TypeSpec) -> String {
    match t {
        TypeSpec::Basic { ty, complex: false } => format!("{ty:?}"),
        TypeSpec::Basic { ty, complex: true } => format!("complex {ty:?}"),
        TypeSpec::Record(r) => {
            let kind = if r.kind == RecordKind::Struct { "struct" } else { "union" };
            let mut text = format!("{kind} {}", r.tag.as_deref().unwrap_or("-"));
            for a in attributes(&r.attrs) {
                let _ = write!(text, " {a}");
            }
            if let Some(fields) = &r.fields {
                let fields: Vec<String> = fields.iter().map(field).collect();
                let _ = write!(text, " {{{}}}", fields.join("; "));
            }
            text
        }
        TypeSpec::Enum(e) => {
            let mut text = format!("enum {}", e.tag.as_deref().unwrap_or("-"));
            for a in attributes(&e.attrs) {
                let _ = write!(text, " {a}");
            }
            if let Some(underlying) = &e.underlying {
                let _ = write!(text, " : {}", type_name(underlying));
            }
            if let Some(list) = &e.enumerators {
                let items: Vec<String> = list
                    .iter()
                    .map(|en| match &en.value {
                        Some(v) => format!("{}={}", en.name, expr(v)),
                        None => en.name.clone(),
                    })
                    .collect();
                let _ = write!(text, " {{{}}}", items.join(", "));
            }
            text
        }
        TypeSpec::TypedefName(name) => format!("'{name}"),
        TypeSpec::TypeofExpr(e) => format!("typeof({})", expr(e)),
        TypeSpec::TypeofType(t) => format!("typeof({})", type_name(t)),
        TypeSpec::AutoType => "auto_type".into(),
        TypeSpec::VaList => "va_list".into(),
        TypeSpec::BitInt { width, unsigned } => format!("{}_BitInt({})", if *unsigned { "unsigned " } else { "" }, expr(width)),
        TypeSpec::Implicit => "implicit-int".into(),
    }
}

fn field(f: &FieldDecl) -> String {
    let declarators: Vec<String> = f
        .declarators
        .iter()
        .map(|fd| {
            let mut text = fd.declarator.as_ref().map_or("-".to_string(), declarator);
            if let Some(width) = &fd.bit_width {
                let _ = write!(text, " :{}", expr(width));
            }
            text
        })
        .collect();
    format!("{} : {}", specs(&f.specs), declarators.join(", "))
}

fn declarator(d: &Declarator) -> String {
    let mut text = d.name.clone().unwrap_or_else(|| "_".to_string());
    if !d.derived.is_empty() {
        let parts: Vec<String> = d.derived.iter().map(derived).collect();
        let _ = write!(text, " [{}]", parts.join(", "));
    }
    for a in attributes(&d.attrs) {
        let _ = write!(text, " {a}");
    }
    text
}

fn derived(d: &Derived) -> String {
    match d {
        Derived::Pointer(q) => {
            let q = qualifiers(q);
            if q.is_empty() {
                "ptr".into()
            } else {
                format!("ptr({})", q.join(" "))
            }
        }
        Derived::Array(a) => {
            let mut inner: Vec<String> = qualifiers(&a.qualifiers);
            if a.is_static {
                inner.insert(0, "static".into());
            }
            if a.star {
                inner.push("*".into());
            }
            if let Some(size) = &a.size {
                inner.push(expr(size));
            }
            format!("arr({})", inner.join(" "))
        }
        Derived::Function(f) => {
            let mut params: Vec<String> =
                f.params.iter().map(|p| format!("{} {}", specs(&p.specs), declarator(&p.declarator))).collect();
            params.extend(f.kr_names.iter().map(|n| format!("kr {n}")));
            if f.variadic {
                params.push("...".into());
            }
            if f.unprototyped && f.kr_names.is_empty() {
                params.push("unprototyped".into());
            }
            format!("fn({})", params.join(", "))
        }
    }
}

fn type_name(t: &TypeName) -> String {
    format!("{} {}", specs(&t.specs), declarator(&t.declarator))
}

fn initializer(init: &Initializer) -> String {
    match init {
        Initializer::Expr(e) => expr(e),
        Initializer::List(items, _) => init_items(items),
    }
}

fn init_items(items: &[InitItem]) -> String {
    let items: Vec<String> = items
        .iter()
        .map(|item| {
            let mut text = String::new();
            for d in &item.designators {
                match d {
                    Designator::Field(name, _) => {
                        let _ = write!(text, ".{name}");
                    }
                    Designator::Index(e) => {
                        let _ = write!(text, "[{}]", expr(e));
                    }
                    Designator::Range(lo, hi) => {
                        let _ = write!(text, "[{} ... {}]", expr(lo), expr(hi));
                    }
                }
            }
            if !text.is_empty() {
                text.push('=');
            }
            text + &initializer(&item.init)
        })
        .collect();
    format!("{{{}}}", items.join(", "))
}

fn string_units(units: &[u32], prefix: StrPrefix) -> String {
    let body: String = units
        .iter()
        .map(|&u| match char::from_u32(u) {
            Some(c) if (' '..='~').contains(&c) && c != '"' && c != '\\' => c.to_string(),
            _ => format!("\\x{{{u:x}}}"),
        })
        .collect();
    let prefix = match prefix {
        StrPrefix::None => "",
        StrPrefix::Utf8 => "u8",
        StrPrefix::Utf16 => "u",
        StrPrefix::Utf32 => "U",
        StrPrefix::Wide => "L",
    };
    format!("{prefix}\"{body}\"")
}

fn expr(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Ident(name) => name.clone(),
        ExprKind::IntLit { value, suffix, decimal } => {
            let base = if *decimal { "" } else { "#" };
            let u = if suffix.unsigned { "u" } else { "" };
            let l = "l".repeat(suffix.long as usize);
            let i = if suffix.imaginary { "i" } else { "" };
            format!("{base}{value}{u}{l}{i}")
        }
        ExprKind::FloatLit { text, suffix, imaginary } => {
            let i = if *imaginary { "i" } else { "" };
            format!("{text}{suffix:?}{i}")
        }
        ExprKind::CharLit { value, prefix } => format!("char{prefix:?}({value})"),
        ExprKind::StringLit { units, prefix } => string_units(units, *prefix),
        ExprKind::Unary(op, operand) => format!("({op:?} {})", expr(operand)),
        ExprKind::Binary(op, l, r) => format!("({op:?} {} {})", expr(l), expr(r)),
        ExprKind::Assign(None, l, r) => format!("(= {} {})", expr(l), expr(r)),
        ExprKind::Assign(Some(op), l, r) => format!("({op:?}= {} {})", expr(l), expr(r)),
        ExprKind::Conditional(c, t, e) => {
            format!("(? {} {} {})", expr(c), t.as_ref().map_or("-".to_string(), |t| expr(t)), expr(e))
        }
        ExprKind::Cast(t, e) => format!("(cast <{}> {})", type_name(t), expr(e)),
        ExprKind::Call(f, args) => {
            let mut text = format!("(call {}", expr(f));
            for a in args {
                let _ = write!(text, " {}", expr(a));
            }
            text + ")"
        }
        ExprKind::Member { base, field, arrow } => format!("({} {} {field})", if *arrow { "->" } else { "." }, expr(base)),
        ExprKind::Index(a, i) => format!("(index {} {})", expr(a), expr(i)),
        ExprKind::SizeofExpr(e) => format!("(sizeof {})", expr(e)),
        ExprKind::SizeofType(t) => format!("(sizeof <{}>)", type_name(t)),
        ExprKind::AlignofExpr(e) => format!("(alignof {})", expr(e)),
        ExprKind::AlignofType(t) => format!("(alignof <{}>)", type_name(t)),
        ExprKind::Comma(list) => format!("(, {})", list.iter().map(expr).collect::<Vec<_>>().join(" ")),
        ExprKind::CompoundLiteral(t, items) => format!("(literal <{}> {})", type_name(t), init_items(items)),
        ExprKind::StmtExpr(block) => {
            let mut inner = Dumper { out: String::new(), indent: 0 };
            inner.block_items(block);
            let lines: Vec<&str> = inner.out.lines().map(str::trim).collect();
            format!("({{ {} }})", lines.join(" "))
        }
        ExprKind::Generic(c, assoc) => {
            let mut text = format!("(generic {}", expr(c));
            for (t, e) in assoc {
                let t = t.as_ref().map_or("default".to_string(), |t| format!("<{}>", type_name(t)));
                let _ = write!(text, " {t}:{}", expr(e));
            }
            text + ")"
        }
        ExprKind::VaArg(ap, t) => format!("(va_arg {} <{}>)", expr(ap), type_name(t)),
        ExprKind::Offsetof(t, parts) => {
            let parts: Vec<String> = parts
                .iter()
                .map(|p| match p {
                    OffsetofPart::Field(name, _) => format!(".{name}"),
                    OffsetofPart::Index(e) => format!("[{}]", expr(e)),
                })
                .collect();
            format!("(offsetof <{}> {})", type_name(t), parts.join(""))
        }
        ExprKind::TypesCompatible(a, b) => format!("(types_compatible <{}> <{}>)", type_name(a), type_name(b)),
        ExprKind::ChooseExpr(c, a, b) => format!("(choose {} {} {})", expr(c), expr(a), expr(b)),
        ExprKind::LabelAddr(label) => format!("&&{label}"),
        ExprKind::Quantifier { quantifier, bound, body } => format!("({quantifier:?} [{}] {})", declaration(bound), expr(body)),
    }
}
