//! Declarations: external declarations and function definitions,
//! declaration specifiers (with basic-type normalisation), struct/union/enum
//! specifiers, declarators (flattened into `Declarator.derived`), type names,
//! initializers and attributes.

use super::{predefined_type, PResult, Parser};
use crate::ast::*;
use crate::lex::{Kw, TokKind, P};
use ir::Loc;

/// What a declarator may or must contain.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(super) enum DeclaratorKind {
    /// Declarations: a name is required.
    Named,
    /// Type names: no name.
    Abstract,
    /// Parameters: a name is optional.
    Either,
}

/// Keyword counts of a basic type, normalised by [`BasicSpec::normalise`].
#[derive(Default)]
struct BasicSpec {
    void: u8,
    bool_: u8,
    char_: u8,
    short: u8,
    int: u8,
    long: u8,
    float: u8,
    double: u8,
    signed: u8,
    unsigned: u8,
    int128: u8,
    float_n: Option<BasicType>,
    complex: bool,
    any: bool,
}

impl BasicSpec {
    /// `_BitInt(width)` with these specifiers, which may only say `signed`
    /// or `unsigned` (once).
    fn bit_int(&self, width: Box<Expr>) -> Option<TypeSpec> {
        let others = [self.void, self.bool_, self.char_, self.short, self.int, self.long, self.float, self.double, self.int128];
        let plain = others.iter().all(|&n| n == 0) && self.float_n.is_none() && !self.complex;
        (plain && self.signed + self.unsigned <= 1).then_some(TypeSpec::BitInt { width, unsigned: self.unsigned == 1 })
    }

    fn add(&mut self, kw: Kw) {
        self.any = true;
        match kw {
            Kw::Void => self.void += 1,
            Kw::Bool => self.bool_ += 1,
            Kw::Char => self.char_ += 1,
            Kw::Short => self.short += 1,
            Kw::Int => self.int += 1,
            Kw::Long => self.long += 1,
            Kw::Float => self.float += 1,
            Kw::Double => self.double += 1,
            Kw::Signed => self.signed += 1,
            Kw::Unsigned => self.unsigned += 1,
            Kw::Int128 => self.int128 += 1,
            Kw::Complex => self.complex = true,
            Kw::Float16 => self.float_n = Some(BasicType::Float16),
            Kw::Float32 => self.float_n = Some(BasicType::Float32),
            Kw::Float64 => self.float_n = Some(BasicType::Float64),
            Kw::Float128 => self.float_n = Some(BasicType::Float128),
            Kw::Float32x => self.float_n = Some(BasicType::Float32x),
            Kw::Float64x => self.float_n = Some(BasicType::Float64x),
            _ => {}
        }
    }

    /// The basic type these keywords spell, or `None` for an invalid
    /// combination such as `long char`.
    fn normalise(&self) -> Option<BasicType> {
        use BasicType::*;
        let unsigned = self.unsigned > 0;
        let signed = self.signed > 0;
        if (unsigned && signed) || self.signed > 1 || self.unsigned > 1 || self.long > 2 {
            return None;
        }
        let sign_given = unsigned || signed;
        let others = [self.void, self.bool_, self.char_, self.short, self.float, self.double, self.int128];
        if others.iter().any(|&n| n > 1) || self.int > 1 {
            return None;
        }
        let float_n = self.float_n.is_some() as u8;
        let kinds = others.iter().sum::<u8>() + float_n;
        if kinds > 1 && !(self.short == 1 && self.int == 0 && kinds == 1) {
            return None;
        }
        let int_like = |plain: BasicType, unsigned_ty: BasicType| if unsigned { unsigned_ty } else { plain };
        if self.short == 1 {
            return (self.long == 0).then_some(int_like(Short, UShort));
        }
        if self.char_ == 1 {
            let ty = if unsigned {
                UChar
            } else if signed {
                SChar
            } else {
                Char
            };
            return (self.long == 0 && self.int == 0).then_some(ty);
        }
        if self.int128 == 1 {
            return (self.long == 0 && self.int == 0).then_some(int_like(Int128, UInt128));
        }
        let no_int_words = self.int == 0 && !sign_given;
        if self.double == 1 {
            return match self.long {
                0 if no_int_words => Some(Double),
                1 if no_int_words => Some(LongDouble),
                _ => None,
            };
        }
        if kinds == 1 {
            let simple = if self.void == 1 {
                Void
            } else if self.bool_ == 1 {
                Bool
            } else if self.float == 1 {
                Float
            } else {
                self.float_n?
            };
            return (no_int_words && self.long == 0).then_some(simple);
        }
        Some(match self.long {
            0 if self.int == 0 && !sign_given && self.complex => Double,
            0 => int_like(Int, UInt),
            1 => int_like(Long, ULong),
            _ => int_like(LongLong, ULongLong),
        })
    }
}

fn is_basic_keyword(kw: Kw) -> bool {
    use Kw::*;
    matches!(
        kw,
        Void | Bool
            | Char
            | Short
            | Int
            | Long
            | Float
            | Double
            | Signed
            | Unsigned
            | Int128
            | Complex
            | Float16
            | Float32
            | Float64
            | Float128
            | Float32x
            | Float64x
    )
}

impl<'t, 'a> Parser<'t, 'a> {
    // ---- external declarations ----

    pub(super) fn external_decl(&mut self, items: &mut Vec<ExternalDecl>) -> PResult<()> {
        if self.eat(P::Semi) || self.eat_kw(Kw::Extension) {
            return Ok(());
        }
        if self.is_kw(Kw::Asm) {
            let loc = self.loc();
            self.bump();
            self.expect(P::LParen)?;
            let text = self.string_text()?;
            self.expect(P::RParen)?;
            self.expect(P::Semi)?;
            items.push(ExternalDecl::Asm(text, loc));
            return Ok(());
        }
        if self.is_kw(Kw::StaticAssert) {
            items.push(ExternalDecl::StaticAssert(self.static_assert()?));
            return Ok(());
        }
        if let Some(error) = self.unknown_type_name() {
            return Err(error);
        }
        let loc = self.loc();
        let specs = self.decl_specs(true)?;
        if self.eat(P::Semi) {
            items.push(ExternalDecl::Declaration(Declaration { specs, declarators: Vec::new(), loc }));
            return Ok(());
        }
        let first = self.init_declarator_head(&specs)?;
        if self.starts_function_body(&first) {
            let declarator = first.declarator;
            let function = self.function_definition(specs, declarator, loc)?;
            items.push(ExternalDecl::Function(function));
            return Ok(());
        }
        let declaration = self.declaration_rest(specs, first, loc)?;
        items.push(ExternalDecl::Declaration(declaration));
        Ok(())
    }

    /// After a declarator with a function derivation: `{`, or the first
    /// K&R parameter declaration.
    fn starts_function_body(&self, head: &InitDeclarator) -> bool {
        let is_function = matches!(head.declarator.derived.first(), Some(Derived::Function(_)));
        if !is_function || head.init.is_some() {
            return false;
        }
        match self.kind() {
            TokKind::Punct(P::LBrace) => true,
            TokKind::Punct(_) | TokKind::Eof => false,
            _ => self.starts_decl_specs(),
        }
    }

    fn function_definition(&mut self, specs: DeclSpecs, declarator: Declarator, loc: Loc) -> PResult<FunctionDef> {
        self.push_scope();
        if let Some(Derived::Function(f)) = declarator.derived.first() {
            for param in &f.params {
                if let Some(name) = &param.declarator.name {
                    self.declare(name, false);
                }
            }
            for name in &f.kr_names {
                self.declare(name, false);
            }
        }
        let mut kr_decls = Vec::new();
        while !self.is(P::LBrace) {
            let decl_loc = self.loc();
            let kr_specs = self.decl_specs(false)?;
            let head = self.init_declarator_head(&kr_specs)?;
            kr_decls.push(self.declaration_rest(kr_specs, head, decl_loc)?);
        }
        let body = self.block_in_current_scope()?;
        self.pop_scope();
        Ok(FunctionDef { specs, declarator, kr_decls, body, loc })
    }

    /// A declaration at block scope where a function definition cannot
    /// stand (a `for` initializer).
    pub(super) fn declaration(&mut self) -> PResult<Declaration> {
        let loc = self.loc();
        match self.block_declaration()? {
            StmtKind::Decl(declaration) => Ok(declaration),
            _ => Err(self.error_at(loc, "a function definition is not allowed here")),
        }
    }

    /// A declaration or a GNU nested function definition at block scope
    /// (the caller saw a declaration start).
    pub(super) fn block_declaration(&mut self) -> PResult<StmtKind> {
        let loc = self.loc();
        let specs = self.decl_specs(false)?;
        if self.eat(P::Semi) {
            return Ok(StmtKind::Decl(Declaration { specs, declarators: Vec::new(), loc }));
        }
        let head = self.init_declarator_head(&specs)?;
        if matches!(head.declarator.derived.first(), Some(Derived::Function(_))) && self.is(P::LBrace) {
            let function = self.function_definition(specs, head.declarator, loc)?;
            return Ok(StmtKind::NestedFunction(Box::new(function)));
        }
        Ok(StmtKind::Decl(self.declaration_rest(specs, head, loc)?))
    }

    /// A declarator with its asm label, attributes and initializer; the
    /// name is declared in the current scope before the initializer.
    fn init_declarator_head(&mut self, specs: &DeclSpecs) -> PResult<InitDeclarator> {
        let mut declarator = self.declarator(DeclaratorKind::Named)?;
        let asm_label = self.asm_label()?;
        self.attributes_into(&mut declarator.attrs)?;
        if let Some(name) = &declarator.name {
            self.declare(name, specs.storage == Some(StorageClass::Typedef));
        }
        let init = if self.eat(P::Assign) { Some(self.initializer()?) } else { None };
        Ok(InitDeclarator { declarator, init, asm_label })
    }

    fn declaration_rest(&mut self, specs: DeclSpecs, first: InitDeclarator, loc: Loc) -> PResult<Declaration> {
        let mut declarators = vec![first];
        while self.eat(P::Comma) {
            declarators.push(self.init_declarator_head(&specs)?);
        }
        self.expect(P::Semi)?;
        Ok(Declaration { specs, declarators, loc })
    }

    fn asm_label(&mut self) -> PResult<Option<String>> {
        if !self.eat_kw(Kw::Asm) {
            return Ok(None);
        }
        self.expect(P::LParen)?;
        let label = self.string_text()?;
        self.expect(P::RParen)?;
        Ok(Some(label))
    }

    pub(super) fn static_assert(&mut self) -> PResult<StaticAssert> {
        let loc = self.loc();
        self.bump();
        self.expect(P::LParen)?;
        let cond = self.assign_expr()?;
        let message = if self.eat(P::Comma) { Some(self.string_text()?) } else { None };
        self.expect(P::RParen)?;
        self.expect(P::Semi)?;
        Ok(StaticAssert { cond, message, loc })
    }

    // ---- declaration specifiers ----

    /// Whether the current token can start declaration specifiers.
    pub(super) fn starts_decl_specs(&self) -> bool {
        let ahead = self.skip_extensions(0);
        match self.kind_at(ahead) {
            TokKind::Kw(kw) => is_specifier_keyword(kw),
            TokKind::Ident => self.ident_names_type(ahead),
            TokKind::Punct(P::LBracket) => self.is_at(ahead + 1, P::LBracket),
            _ => false,
        }
    }

    /// The offset of the first token at or after `ahead` that is not
    /// `__extension__` (which may precede a declaration or an expression).
    fn skip_extensions(&self, mut ahead: usize) -> usize {
        while self.kind_at(ahead) == TokKind::Kw(Kw::Extension) {
            ahead += 1;
        }
        ahead
    }

    /// Whether the current token starts a type name (in casts, `sizeof`...).
    pub(super) fn starts_type_name(&self) -> bool {
        self.starts_type_name_at(0)
    }

    /// Declaration specifiers. `file_scope` allows an implicit `int` with no
    /// specifier at all (K&R `main() {...}`).
    pub(super) fn decl_specs(&mut self, file_scope: bool) -> PResult<DeclSpecs> {
        let loc = self.loc();
        let mut specs = DeclSpecs {
            storage: None,
            thread_local: false,
            is_inline: false,
            is_noreturn: false,
            qualifiers: Qualifiers::default(),
            ty: TypeSpec::Implicit,
            alignas: Vec::new(),
            attrs: Vec::new(),
            loc,
        };
        let mut basic = BasicSpec::default();
        let mut other_type = false;
        let mut basic_loc = loc;
        let mut bit_int_width = None;
        loop {
            let tok = self.peek();
            match tok.kind {
                TokKind::Kw(kw) if is_basic_keyword(kw) => {
                    if other_type {
                        return Err(self.error_at(tok.loc, "two or more data types in declaration specifiers"));
                    }
                    if !basic.any {
                        basic_loc = tok.loc;
                    }
                    basic.add(kw);
                    self.bump();
                }
                TokKind::Kw(Kw::Atomic) if self.is_at(1, P::LParen) && !other_type && !basic.any => {
                    self.bump();
                    self.bump();
                    let inner = self.type_name()?;
                    self.expect(P::RParen)?;
                    // `_Atomic(T)` is `T` qualified atomic.
                    specs.qualifiers.is_atomic = true;
                    specs.ty = TypeSpec::TypeofType(Box::new(inner));
                    other_type = true;
                }
                TokKind::Kw(kw) if is_non_basic_type_keyword(kw) && !other_type && !basic.any => {
                    specs.ty = self.type_specifier(kw)?;
                    other_type = true;
                }
                TokKind::Kw(kw) if self.storage_or_qualifier(kw, &mut specs)? => {}
                TokKind::Kw(Kw::Attribute) => self.attributes_into(&mut specs.attrs)?,
                TokKind::Punct(P::LBracket) if self.is_at(1, P::LBracket) => self.attributes_into(&mut specs.attrs)?,
                TokKind::Kw(Kw::Alignas) => specs.alignas.push(self.alignas()?),
                TokKind::Kw(Kw::Decimal) => {
                    return Err(self.error_at(tok.loc, "unsupported: decimal floating types"));
                }
                TokKind::Kw(Kw::BitInt) if !other_type && bit_int_width.is_none() => {
                    self.bump();
                    self.expect(P::LParen)?;
                    bit_int_width = Some(Box::new(self.assign_expr()?));
                    self.expect(P::RParen)?;
                    basic_loc = tok.loc;
                }
                TokKind::Ident if !other_type && !basic.any && self.ident_names_type(0) => {
                    let name = self.text(tok);
                    specs.ty = match (self.lookup(name), predefined_type(name)) {
                        (None, Some(ty)) => ty,
                        _ => TypeSpec::TypedefName(name.to_string()),
                    };
                    other_type = true;
                    self.bump();
                }
                _ => break,
            }
        }
        if let Some(width) = bit_int_width {
            specs.ty = basic
                .bit_int(width)
                .ok_or_else(|| self.error_at(basic_loc, "invalid combination of type specifiers"))?;
        } else if basic.any {
            let ty = basic
                .normalise()
                .ok_or_else(|| self.error_at(basic_loc, "invalid combination of type specifiers"))?;
            specs.ty = TypeSpec::Basic { ty, complex: basic.complex };
        } else if !other_type && !file_scope && !self.has_non_type_specifier(&specs) {
            return Err(self.expected("a type specifier"));
        }
        Ok(specs)
    }

    fn has_non_type_specifier(&self, specs: &DeclSpecs) -> bool {
        specs.storage.is_some()
            || specs.thread_local
            || specs.is_inline
            || specs.is_noreturn
            || specs.qualifiers != Qualifiers::default()
            || !specs.attrs.is_empty()
            || !specs.alignas.is_empty()
    }

    /// Storage classes, function specifiers and qualifiers; returns whether
    /// `kw` was one of them (and consumed).
    fn storage_or_qualifier(&mut self, kw: Kw, specs: &mut DeclSpecs) -> PResult<bool> {
        let storage = match kw {
            Kw::Typedef => Some(StorageClass::Typedef),
            Kw::Extern => Some(StorageClass::Extern),
            Kw::Static => Some(StorageClass::Static),
            Kw::Auto => Some(StorageClass::Auto),
            Kw::Register => Some(StorageClass::Register),
            _ => None,
        };
        if let Some(storage) = storage {
            if specs.storage.is_some_and(|s| s != storage) {
                return Err(self.error_at(self.loc(), "multiple storage classes in declaration specifiers"));
            }
            specs.storage = Some(storage);
        } else {
            match kw {
                Kw::ThreadLocal => specs.thread_local = true,
                Kw::Inline => specs.is_inline = true,
                Kw::Noreturn => specs.is_noreturn = true,
                Kw::Extension => {}
                _ if self.qualifier_into(kw, &mut specs.qualifiers) => {}
                _ => return Ok(false),
            }
        }
        self.bump();
        Ok(true)
    }

    /// Sets the qualifier `kw` names; returns whether it was one.
    fn qualifier_into(&self, kw: Kw, quals: &mut Qualifiers) -> bool {
        match kw {
            Kw::Const => quals.is_const = true,
            Kw::Volatile => quals.is_volatile = true,
            Kw::Restrict => quals.is_restrict = true,
            Kw::Atomic => quals.is_atomic = true,
            _ => return false,
        }
        true
    }

    /// A struct/union/enum/typeof/`__auto_type`/`__builtin_va_list` specifier.
    fn type_specifier(&mut self, kw: Kw) -> PResult<TypeSpec> {
        Ok(match kw {
            Kw::Struct | Kw::Union => TypeSpec::Record(self.record_spec()?),
            Kw::Enum => TypeSpec::Enum(self.enum_spec()?),
            Kw::Typeof => self.typeof_spec()?,
            // The AST has no way to say "drop the qualifiers".
            Kw::TypeofUnqual => return Err(self.error_at(self.loc(), "unsupported: `typeof_unqual`")),
            Kw::AutoType => {
                self.bump();
                TypeSpec::AutoType
            }
            _ => {
                self.bump();
                TypeSpec::VaList
            }
        })
    }

    fn typeof_spec(&mut self) -> PResult<TypeSpec> {
        self.bump();
        self.expect(P::LParen)?;
        let spec = if self.starts_type_name() {
            TypeSpec::TypeofType(Box::new(self.type_name()?))
        } else {
            TypeSpec::TypeofExpr(Box::new(self.expr()?))
        };
        self.expect(P::RParen)?;
        Ok(spec)
    }

    fn alignas(&mut self) -> PResult<AlignSpec> {
        self.bump();
        self.expect(P::LParen)?;
        let spec = if self.starts_type_name() {
            AlignSpec::Type(Box::new(self.type_name()?))
        } else {
            AlignSpec::Expr(Box::new(self.assign_expr()?))
        };
        self.expect(P::RParen)?;
        Ok(spec)
    }

    fn record_spec(&mut self) -> PResult<RecordSpec> {
        let loc = self.loc();
        let kind = if self.bump().kind == TokKind::Kw(Kw::Struct) { RecordKind::Struct } else { RecordKind::Union };
        let mut attrs = Vec::new();
        self.attributes_into(&mut attrs)?;
        let tag = if self.kind() == TokKind::Ident { Some(self.expect_ident()?.0) } else { None };
        let body_start = self.pos;
        let fields = if self.eat(P::LBrace) {
            let mut fields = Vec::new();
            while !self.eat(P::RBrace) {
                self.field_decl(&mut fields)?;
            }
            self.attributes_into(&mut attrs)?;
            if let Some(pack) = self.tokens.pack_at(body_start) {
                attrs.push(pack_attribute(pack, loc));
            }
            Some(fields)
        } else {
            if tag.is_none() {
                return Err(self.expected("a tag name or `{`"));
            }
            None
        };
        Ok(RecordSpec { kind, tag, fields, attrs, loc })
    }

    fn field_decl(&mut self, fields: &mut Vec<FieldDecl>) -> PResult<()> {
        if self.eat(P::Semi) {
            return Ok(());
        }
        if self.is_kw(Kw::StaticAssert) {
            // A compile-time check with no effect on the record's layout.
            self.static_assert()?;
            return Ok(());
        }
        let loc = self.loc();
        let specs = self.decl_specs(false)?;
        let mut declarators = Vec::new();
        if !self.is(P::Semi) && !self.is(P::RBrace) {
            loop {
                let mut declarator = if self.is(P::Colon) { None } else { Some(self.declarator(DeclaratorKind::Named)?) };
                let bit_width = if self.eat(P::Colon) { Some(self.conditional_expr()?) } else { None };
                let mut attrs = Vec::new();
                self.attributes_into(&mut attrs)?;
                // An unnamed bit-field has no member for attributes to apply to.
                if let Some(d) = declarator.as_mut() {
                    d.attrs.extend(attrs);
                }
                declarators.push(FieldDeclarator { declarator, bit_width });
                if !self.eat(P::Comma) {
                    break;
                }
            }
        }
        // GNU accepts a missing `;` after the last member.
        if !self.is(P::RBrace) {
            self.expect(P::Semi)?;
        }
        fields.push(FieldDecl { specs, declarators, loc });
        Ok(())
    }

    fn enum_spec(&mut self) -> PResult<EnumSpec> {
        let loc = self.loc();
        self.bump();
        let mut attrs = Vec::new();
        self.attributes_into(&mut attrs)?;
        let tag = if self.kind() == TokKind::Ident { Some(self.expect_ident()?.0) } else { None };
        let underlying = if self.is(P::Colon) && (tag.is_some() || self.is_at(1, P::LBrace) || self.starts_type_name_at(1)) {
            self.bump();
            Some(Box::new(self.type_name()?))
        } else {
            None
        };
        let enumerators = if self.eat(P::LBrace) {
            let mut list = Vec::new();
            while !self.eat(P::RBrace) {
                let (name, name_loc) = self.expect_ident()?;
                self.attributes_into(&mut Vec::new())?;
                let value = if self.eat(P::Assign) { Some(self.conditional_expr()?) } else { None };
                self.declare(&name, false);
                list.push(Enumerator { name, value, loc: name_loc });
                if !self.eat(P::Comma) {
                    self.expect(P::RBrace)?;
                    break;
                }
            }
            self.attributes_into(&mut attrs)?;
            Some(list)
        } else {
            if tag.is_none() {
                return Err(self.expected("a tag name or `{`"));
            }
            None
        };
        Ok(EnumSpec { tag, enumerators, underlying, attrs, loc })
    }

    pub(super) fn starts_type_name_at(&self, ahead: usize) -> bool {
        let ahead = self.skip_extensions(ahead);
        match self.kind_at(ahead) {
            TokKind::Kw(kw) => is_specifier_keyword(kw) && !is_storage_keyword(kw),
            TokKind::Ident => self.ident_names_type(ahead),
            _ => false,
        }
    }

    // ---- declarators ----

    pub(super) fn type_name(&mut self) -> PResult<TypeName> {
        let loc = self.loc();
        let specs = self.decl_specs(false)?;
        let declarator = self.declarator(DeclaratorKind::Abstract)?;
        Ok(TypeName { specs, declarator, loc })
    }

    /// A declarator, flattened: the derivations of the innermost part
    /// come first, then this level's array/function suffixes, then its
    /// pointers from the innermost outwards.
    pub(super) fn declarator(&mut self, kind: DeclaratorKind) -> PResult<Declarator> {
        self.nested(|p| p.declarator_level(kind))
    }

    fn declarator_level(&mut self, kind: DeclaratorKind) -> PResult<Declarator> {
        let loc = self.loc();
        let mut attrs = Vec::new();
        let mut pointers = Vec::new();
        loop {
            self.attributes_into(&mut attrs)?;
            if !self.eat(P::Star) {
                break;
            }
            let mut quals = Qualifiers::default();
            loop {
                match self.kind() {
                    TokKind::Kw(kw) if self.qualifier_into(kw, &mut quals) => {
                        self.bump();
                    }
                    TokKind::Kw(Kw::Attribute) => self.attributes_into(&mut attrs)?,
                    TokKind::Kw(Kw::Extension) => {
                        self.bump();
                    }
                    _ => break,
                }
            }
            pointers.push(quals);
        }
        let mut result = if self.kind() == TokKind::Ident && kind != DeclaratorKind::Abstract {
            let tok = self.bump();
            Declarator { name: Some(self.text(tok).to_string()), derived: Vec::new(), attrs: Vec::new(), loc: tok.loc }
        } else if self.is(P::LParen) && self.paren_starts_declarator(kind) {
            self.bump();
            let inner = self.declarator(kind)?;
            self.expect(P::RParen)?;
            inner
        } else if kind == DeclaratorKind::Named {
            return Err(self.expected("an identifier or `(`"));
        } else {
            Declarator { name: None, derived: Vec::new(), attrs: Vec::new(), loc }
        };
        self.attributes_into(&mut result.attrs)?;
        loop {
            if self.eat(P::LBracket) {
                let array = self.array_suffix()?;
                result.derived.push(Derived::Array(array));
            } else if self.is(P::LParen) {
                self.bump();
                let function = self.function_suffix()?;
                result.derived.push(Derived::Function(function));
            } else {
                break;
            }
            self.attributes_into(&mut result.attrs)?;
        }
        result.derived.extend(pointers.into_iter().rev().map(Derived::Pointer));
        result.attrs.extend(attrs);
        Ok(result)
    }

    /// At `(` in a declarator: a parenthesised declarator, or (in type names
    /// and parameters) the parameter list of a function type.
    fn paren_starts_declarator(&self, kind: DeclaratorKind) -> bool {
        if kind == DeclaratorKind::Named {
            return true;
        }
        match self.kind_at(1) {
            TokKind::Punct(P::Star | P::LParen | P::Caret) => true,
            TokKind::Punct(P::LBracket) => self.is_at(2, P::LBracket),
            TokKind::Kw(Kw::Attribute) => true,
            TokKind::Ident => kind == DeclaratorKind::Either && !self.ident_names_type(1),
            _ => false,
        }
    }

    /// After `[`: `[]`, `[*]`, `[static const n]`, `[n]`.
    fn array_suffix(&mut self) -> PResult<ArrayDecl> {
        let mut array = ArrayDecl { size: None, qualifiers: Qualifiers::default(), is_static: false, star: false };
        loop {
            match self.kind() {
                TokKind::Kw(Kw::Static) => array.is_static = true,
                TokKind::Kw(kw) if self.qualifier_into(kw, &mut array.qualifiers) => {}
                _ => break,
            }
            self.bump();
        }
        if self.is(P::Star) && self.is_at(1, P::RBracket) {
            self.bump();
            array.star = true;
        } else if !self.is(P::RBracket) {
            array.size = Some(Box::new(self.assign_expr()?));
        }
        self.expect(P::RBracket)?;
        Ok(array)
    }

    /// After `(`: a prototype's parameters, `(void)`, `()`, or a K&R
    /// identifier list. Parameter names live in a scope of their own.
    fn function_suffix(&mut self) -> PResult<FunctionDecl> {
        let mut function = FunctionDecl { params: Vec::new(), variadic: false, unprototyped: false, kr_names: Vec::new() };
        if self.eat(P::RParen) {
            function.unprototyped = true;
            return Ok(function);
        }
        if self.is_kw(Kw::Void) && self.is_at(1, P::RParen) {
            self.bump();
            self.bump();
            return Ok(function);
        }
        if self.kind() == TokKind::Ident && !self.ident_names_type(0) && (self.is_at(1, P::Comma) || self.is_at(1, P::RParen)) {
            return self.kr_identifier_list(function);
        }
        self.push_scope();
        let result = self.parameter_list(&mut function);
        self.pop_scope();
        result?;
        Ok(function)
    }

    fn kr_identifier_list(&mut self, mut function: FunctionDecl) -> PResult<FunctionDecl> {
        function.unprototyped = true;
        loop {
            function.kr_names.push(self.expect_ident()?.0);
            if !self.eat(P::Comma) {
                break;
            }
        }
        self.expect(P::RParen)?;
        Ok(function)
    }

    fn parameter_list(&mut self, function: &mut FunctionDecl) -> PResult<()> {
        loop {
            if self.eat(P::Ellipsis) {
                function.variadic = true;
                break;
            }
            let loc = self.loc();
            // A bare name among declared parameters, `f(char *s, n)`, is an
            // implicit-int parameter, as clang reads it (gcc refuses it).
            let bare_name = self.kind() == TokKind::Ident
                && !self.ident_names_type(0)
                && (self.is_at(1, P::Comma) || self.is_at(1, P::RParen));
            let specs = self.decl_specs(bare_name)?;
            let mut declarator = self.declarator(DeclaratorKind::Either)?;
            self.attributes_into(&mut declarator.attrs)?;
            if let Some(name) = &declarator.name {
                self.declare(name, false);
            }
            function.params.push(ParamDecl { specs, declarator, loc });
            if !self.eat(P::Comma) {
                break;
            }
        }
        self.expect(P::RParen)?;
        Ok(())
    }

    // ---- initializers ----

    pub(super) fn initializer(&mut self) -> PResult<Initializer> {
        if self.is(P::LBrace) {
            let loc = self.loc();
            self.bump();
            let items = self.nested(|p| p.init_list_items())?;
            Ok(Initializer::List(items, loc))
        } else {
            Ok(Initializer::Expr(self.assign_expr()?))
        }
    }

    /// The items of a braced list after `{`, through the closing `}`.
    pub(super) fn init_list_items(&mut self) -> PResult<Vec<InitItem>> {
        let mut items = Vec::new();
        while !self.eat(P::RBrace) {
            let designators = self.designators()?;
            let init = self.initializer()?;
            items.push(InitItem { designators, init });
            if !self.eat(P::Comma) {
                self.expect(P::RBrace)?;
                break;
            }
        }
        Ok(items)
    }

    /// `.a[1] =`, GNU `[lo ... hi] =`, the obsolete `name:` and `[i] v`.
    fn designators(&mut self) -> PResult<Vec<Designator>> {
        let mut list = Vec::new();
        if self.kind() == TokKind::Ident && self.is_at(1, P::Colon) {
            let (name, loc) = self.expect_ident()?;
            self.bump();
            list.push(Designator::Field(name, loc));
            return Ok(list);
        }
        loop {
            if self.eat(P::Dot) {
                let (name, loc) = self.expect_ident()?;
                list.push(Designator::Field(name, loc));
            } else if self.eat(P::LBracket) {
                let index = self.conditional_expr()?;
                if self.eat(P::Ellipsis) {
                    let hi = self.conditional_expr()?;
                    list.push(Designator::Range(index, hi));
                } else {
                    list.push(Designator::Index(index));
                }
                self.expect(P::RBracket)?;
            } else {
                break;
            }
        }
        if !list.is_empty() && !self.eat(P::Assign) {
            // GNU's obsolete `[index] value` omits the `=`; fields need it.
            let only_indices = list.iter().all(|d| !matches!(d, Designator::Field(..)));
            if !only_indices {
                return Err(self.expected("`=`"));
            }
        }
        Ok(list)
    }

    // ---- attributes ----

    /// Any number of GNU `__attribute__((...))` and C23 `[[...]]`
    /// attribute groups; none is fine.
    pub(super) fn attributes_into(&mut self, attrs: &mut Vec<Attribute>) -> PResult<()> {
        loop {
            if self.eat_kw(Kw::Attribute) {
                self.expect(P::LParen)?;
                self.expect(P::LParen)?;
                self.attribute_list(attrs, P::RParen)?;
                self.expect(P::RParen)?;
            } else if self.is(P::LBracket) && self.is_at(1, P::LBracket) {
                self.bump();
                self.bump();
                self.attribute_list(attrs, P::RBracket)?;
                self.expect(P::RBracket)?;
            } else {
                return Ok(());
            }
        }
    }

    /// Comma-separated attributes up to (and including) `close`.
    fn attribute_list(&mut self, attrs: &mut Vec<Attribute>, close: P) -> PResult<()> {
        loop {
            if self.eat(close) {
                return Ok(());
            }
            if self.eat(P::Comma) {
                continue;
            }
            attrs.push(self.attribute()?);
        }
    }

    fn attribute(&mut self) -> PResult<Attribute> {
        let tok = self.peek();
        if !matches!(tok.kind, TokKind::Ident | TokKind::Kw(_)) {
            return Err(self.expected("an attribute name"));
        }
        self.bump();
        let mut name = self.text(tok);
        if self.is(P::ColonColon) {
            // A C23 vendor prefix `gnu::name`: the name is what follows.
            self.bump();
            let tok = self.bump();
            name = self.text(tok);
        }
        let name = name.trim_start_matches("__").trim_end_matches("__").to_string();
        let mut args = Vec::new();
        if self.eat(P::LParen) {
            while !self.eat(P::RParen) {
                if self.starts_type_name() && !self.ident_names_type(0) {
                    // A type argument (`vector_size` takes numbers, but a few
                    // attributes take types): kept out of the argument list.
                    self.type_name()?;
                } else {
                    args.push(self.assign_expr()?);
                }
                if !self.eat(P::Comma) {
                    self.expect(P::RParen)?;
                    break;
                }
            }
        }
        Ok(Attribute { name, args, loc: tok.loc })
    }
}

fn is_non_basic_type_keyword(kw: Kw) -> bool {
    matches!(kw, Kw::Struct | Kw::Union | Kw::Enum | Kw::Typeof | Kw::TypeofUnqual | Kw::AutoType | Kw::VaList)
}

fn is_storage_keyword(kw: Kw) -> bool {
    matches!(kw, Kw::Typedef | Kw::Extern | Kw::Static | Kw::Auto | Kw::Register | Kw::ThreadLocal)
}

fn is_specifier_keyword(kw: Kw) -> bool {
    use Kw::*;
    is_basic_keyword(kw)
        || is_storage_keyword(kw)
        || matches!(
            kw,
            Const
                | Volatile
                | Restrict
                | Atomic
                | Inline
                | Noreturn
                | Struct
                | Union
                | Enum
                | Typeof
                | TypeofUnqual
                | AutoType
                | VaList
                | Attribute
                | Alignas
                | Extension
                | Decimal
                | BitInt
        )
}

/// `#pragma pack(N)` in force at a record definition, as the attribute
/// `pack(N)` on the record.
fn pack_attribute(pack: u32, loc: Loc) -> Attribute {
    let value = Expr { kind: ExprKind::IntLit { value: pack as u128, suffix: IntSuffix::default(), decimal: true }, loc };
    Attribute { name: "pack".to_string(), args: vec![value], loc }
}
