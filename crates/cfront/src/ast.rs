//! The abstract syntax tree of a C translation unit, as the parser builds it.
//!
//! The tree is untyped: the type checker (`sema`) resolves names, computes
//! types and lowers it to the IR. Keyword combinations of basic types are
//! already normalised (`unsigned long int` is [`BasicType::ULong`]), and
//! declarators are flattened into a list of derivations, so later stages
//! never re-parse C's declarator syntax.

use ir::Loc;

#[derive(Clone, Debug, Default)]
pub struct TranslationUnit {
    pub items: Vec<ExternalDecl>,
}

#[derive(Clone, Debug)]
pub enum ExternalDecl {
    Function(FunctionDef),
    Declaration(Declaration),
    StaticAssert(StaticAssert),
    /// File-scope `asm("...")`.
    Asm(String, Loc),
}

#[derive(Clone, Debug)]
pub struct FunctionDef {
    pub specs: DeclSpecs,
    /// Its first derivation is `Derived::Function`.
    pub declarator: Declarator,
    /// K&R parameter declarations between the declarator and the body.
    pub kr_decls: Vec<Declaration>,
    pub body: Block,
    pub loc: Loc,
}

#[derive(Clone, Debug)]
pub struct Declaration {
    pub specs: DeclSpecs,
    pub declarators: Vec<InitDeclarator>,
    pub loc: Loc,
}

#[derive(Clone, Debug)]
pub struct InitDeclarator {
    pub declarator: Declarator,
    pub init: Option<Initializer>,
    /// `asm("name")` label after the declarator (symbol renaming).
    pub asm_label: Option<String>,
}

#[derive(Clone, Debug)]
pub struct StaticAssert {
    pub cond: Expr,
    pub message: Option<String>,
    pub loc: Loc,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum StorageClass {
    Typedef,
    Extern,
    Static,
    Auto,
    Register,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Qualifiers {
    pub is_const: bool,
    pub is_volatile: bool,
    pub is_restrict: bool,
    pub is_atomic: bool,
}

/// Declaration specifiers: everything before the declarators.
#[derive(Clone, Debug)]
pub struct DeclSpecs {
    pub storage: Option<StorageClass>,
    pub thread_local: bool,
    pub is_inline: bool,
    pub is_noreturn: bool,
    pub qualifiers: Qualifiers,
    pub ty: TypeSpec,
    /// `_Alignas(...)` specifiers.
    pub alignas: Vec<AlignSpec>,
    pub attrs: Vec<Attribute>,
    pub loc: Loc,
}

#[derive(Clone, Debug)]
pub enum AlignSpec {
    Type(Box<TypeName>),
    Expr(Box<Expr>),
}

/// The normalised arithmetic and void types.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum BasicType {
    Void,
    Bool,
    /// Plain `char` (distinct from `signed char` in C's type system).
    Char,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
    Int128,
    UInt128,
    Float,
    Double,
    LongDouble,
    Float16,
    Float32,
    Float64,
    Float128,
    Float32x,
    Float64x,
}

#[derive(Clone, Debug)]
pub enum TypeSpec {
    /// `complex` is set for `_Complex` types.
    Basic { ty: BasicType, complex: bool },
    Record(RecordSpec),
    Enum(EnumSpec),
    TypedefName(String),
    TypeofExpr(Box<Expr>),
    TypeofType(Box<TypeName>),
    /// GNU `__auto_type`.
    AutoType,
    /// `__builtin_va_list`.
    VaList,
    /// C23 `_BitInt(width)` (clang's `_ExtInt(width)`), `unsigned` when
    /// written with `unsigned`.
    BitInt { width: Box<Expr>, unsigned: bool },
    /// `int` implied: no type specifier was written (`static x;`, K&R code).
    Implicit,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum RecordKind {
    Struct,
    Union,
}

/// `struct`/`union` specifier: a reference (`fields == None`) or a definition.
#[derive(Clone, Debug)]
pub struct RecordSpec {
    pub kind: RecordKind,
    pub tag: Option<String>,
    pub fields: Option<Vec<FieldDecl>>,
    pub attrs: Vec<Attribute>,
    pub loc: Loc,
}

#[derive(Clone, Debug)]
pub struct FieldDecl {
    pub specs: DeclSpecs,
    /// Empty for an anonymous struct/union member (`struct { int a; };`).
    pub declarators: Vec<FieldDeclarator>,
    pub loc: Loc,
}

#[derive(Clone, Debug)]
pub struct FieldDeclarator {
    /// `None` for an unnamed bit-field (`int : 3;`).
    pub declarator: Option<Declarator>,
    pub bit_width: Option<Expr>,
}

#[derive(Clone, Debug)]
pub struct EnumSpec {
    pub tag: Option<String>,
    /// `None` for a reference to an enum declared elsewhere.
    pub enumerators: Option<Vec<Enumerator>>,
    /// C23 / clang fixed underlying type (`enum E : unsigned char`).
    pub underlying: Option<Box<TypeName>>,
    pub attrs: Vec<Attribute>,
    pub loc: Loc,
}

#[derive(Clone, Debug)]
pub struct Enumerator {
    pub name: String,
    pub value: Option<Expr>,
    pub loc: Loc,
}

/// A GNU `__attribute__((name(args)))` or C23 `[[name]]` attribute.
/// Names are normalised without surrounding underscores
/// (`__aligned__` → `aligned`).
#[derive(Clone, Debug)]
pub struct Attribute {
    pub name: String,
    pub args: Vec<Expr>,
    pub loc: Loc,
}

/// A declarator: the declared name and how its type derives from the base
/// type. `derived[0]` applies to the name itself, the last entry to the base
/// type: `int *a[3]` is `[Array(3), Pointer]` ("a is an array of 3 pointers
/// to int"), `int (*f)(void)` is `[Pointer, Function]`.
#[derive(Clone, Debug)]
pub struct Declarator {
    /// `None` in abstract declarators (type names, unnamed parameters).
    pub name: Option<String>,
    pub derived: Vec<Derived>,
    pub attrs: Vec<Attribute>,
    pub loc: Loc,
}

#[derive(Clone, Debug)]
pub enum Derived {
    Pointer(Qualifiers),
    Array(ArrayDecl),
    Function(FunctionDecl),
}

#[derive(Clone, Debug)]
pub struct ArrayDecl {
    /// `None` for `[]`; `[*]` is `None` with `star` set.
    pub size: Option<Box<Expr>>,
    pub qualifiers: Qualifiers,
    pub is_static: bool,
    pub star: bool,
}

#[derive(Clone, Debug)]
pub struct FunctionDecl {
    pub params: Vec<ParamDecl>,
    pub variadic: bool,
    /// `f()`: no prototype. `f(void)` has `params` empty and this false.
    pub unprototyped: bool,
    /// K&R identifier list `f(a, b)`; the types come from the definition's
    /// `kr_decls`.
    pub kr_names: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct ParamDecl {
    pub specs: DeclSpecs,
    pub declarator: Declarator,
    pub loc: Loc,
}

/// A type name, as in casts, `sizeof(T)` and compound literals.
#[derive(Clone, Debug)]
pub struct TypeName {
    pub specs: DeclSpecs,
    /// An abstract declarator (`name == None`).
    pub declarator: Declarator,
    pub loc: Loc,
}

#[derive(Clone, Debug)]
pub enum Initializer {
    Expr(Expr),
    List(Vec<InitItem>, Loc),
}

#[derive(Clone, Debug)]
pub struct InitItem {
    pub designators: Vec<Designator>,
    pub init: Initializer,
}

#[derive(Clone, Debug)]
pub enum Designator {
    /// `.name`
    Field(String, Loc),
    /// `[index]`
    Index(Expr),
    /// GNU `[lo ... hi]`
    Range(Expr, Expr),
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum StrPrefix {
    /// `"..."` / `'...'`
    None,
    /// `u8"..."`
    Utf8,
    /// `u"..."` (char16_t)
    Utf16,
    /// `U"..."` (char32_t)
    Utf32,
    /// `L"..."` (wchar_t)
    Wide,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct IntSuffix {
    pub unsigned: bool,
    /// 0: none, 1: `l`, 2: `ll`
    pub long: u8,
    /// GNU imaginary constant (`3i`).
    pub imaginary: bool,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum FloatSuffix {
    None,
    F,
    L,
    F16,
    F32,
    F64,
    F128,
    F32x,
    F64x,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum UnaryOp {
    Plus,
    Minus,
    BitNot,
    Not,
    Deref,
    AddrOf,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
    /// GNU `__real__` / `__imag__`
    Real,
    Imag,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum BinaryOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    LogAnd,
    LogOr,
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub loc: Loc,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Ident(String),
    /// An integer literal; `decimal` matters for its type (C11 6.4.4.1).
    /// Values above `u128::MAX` are a parse error.
    IntLit { value: u128, suffix: IntSuffix, decimal: bool },
    /// A floating literal, kept as written (without suffix) so the type
    /// checker can round it exactly for its type.
    FloatLit { text: String, suffix: FloatSuffix, imaginary: bool },
    /// A character constant's value (multi-char constants as gcc computes them).
    CharLit { value: i64, prefix: StrPrefix },
    /// A string literal after concatenation, as code units of its prefix's
    /// width (bytes for `None`/`Utf8`, UTF-16 units, UTF-32 / wchar_t
    /// units), without the terminating zero.
    StringLit { units: Vec<u32>, prefix: StrPrefix },
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `lhs = rhs` (`op == None`) or compound `lhs op= rhs`.
    Assign(Option<BinaryOp>, Box<Expr>, Box<Expr>),
    /// `c ? t : e`; GNU `c ?: e` has `t == None`.
    Conditional(Box<Expr>, Option<Box<Expr>>, Box<Expr>),
    Cast(Box<TypeName>, Box<Expr>),
    Call(Box<Expr>, Vec<Expr>),
    Member { base: Box<Expr>, field: String, arrow: bool },
    Index(Box<Expr>, Box<Expr>),
    SizeofExpr(Box<Expr>),
    SizeofType(Box<TypeName>),
    AlignofExpr(Box<Expr>),
    AlignofType(Box<TypeName>),
    /// `a, b, c`
    Comma(Vec<Expr>),
    CompoundLiteral(Box<TypeName>, Vec<InitItem>),
    /// GNU statement expression `({ ... })`.
    StmtExpr(Block),
    /// `_Generic(controlling, T1: e1, default: e2)`: `None` is `default`.
    Generic(Box<Expr>, Vec<(Option<TypeName>, Expr)>),
    /// `__builtin_va_arg(ap, T)`
    VaArg(Box<Expr>, Box<TypeName>),
    /// `__builtin_offsetof(T, a.b[3].c)`
    Offsetof(Box<TypeName>, Vec<OffsetofPart>),
    /// `__builtin_types_compatible_p(T1, T2)`
    TypesCompatible(Box<TypeName>, Box<TypeName>),
    /// `__builtin_choose_expr(c, a, b)`
    ChooseExpr(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `&&label` (GNU labels as values).
    LabelAddr(String),
    /// CBMC's `__CPROVER_forall { int i; body }` (`__CPROVER_exists`, and
    /// ACSL's `∀ int i; body`): `body` holds for every (some) value of the
    /// variables `bound` declares, which are in scope only in `body`.
    Quantifier { quantifier: ir::Quantifier, bound: Box<Declaration>, body: Box<Expr> },
}

#[derive(Clone, Debug)]
pub enum OffsetofPart {
    Field(String, Loc),
    Index(Expr),
}

#[derive(Clone, Debug)]
pub struct Block {
    pub items: Vec<Stmt>,
    pub loc: Loc,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub loc: Loc,
}

#[derive(Clone, Debug)]
pub enum ForInit {
    None,
    Expr(Expr),
    Decl(Declaration),
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Compound(Block),
    /// `decl;` as a block item.
    Decl(Declaration),
    /// A GNU nested function definition.
    NestedFunction(Box<FunctionDef>),
    /// `__label__ a, b;`: labels local to the enclosing block.
    LocalLabels(Vec<String>),
    StaticAssert(StaticAssert),
    /// An expression statement; `None` is the empty statement `;`.
    Expr(Option<Expr>),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    Switch(Expr, Box<Stmt>),
    While(Expr, Box<Stmt>),
    DoWhile(Box<Stmt>, Expr),
    For { init: ForInit, cond: Option<Expr>, step: Option<Expr>, body: Box<Stmt> },
    /// A loop (`While`, `DoWhile` or `For`) after `#pragma unroll`: its own
    /// unwinding bound (`None`: unwind until it exits).
    Unrolled { bound: Option<u64>, body: Box<Stmt> },
    Goto(String),
    /// GNU `goto *expr;`
    ComputedGoto(Expr),
    Continue,
    Break,
    Return(Option<Expr>),
    Labeled(String, Box<Stmt>),
    /// `case lo:` or GNU `case lo ... hi:`.
    Case(Expr, Option<Expr>, Box<Stmt>),
    Default(Box<Stmt>),
    Asm(AsmStmt),
}

/// GNU inline assembly; operands are kept so their side effects can be
/// approximated (outputs become nondeterministic).
#[derive(Clone, Debug)]
pub struct AsmStmt {
    pub template: String,
    pub outputs: Vec<AsmOperand>,
    pub inputs: Vec<AsmOperand>,
    pub is_volatile: bool,
}

#[derive(Clone, Debug)]
pub struct AsmOperand {
    pub constraint: String,
    pub expr: Expr,
}
