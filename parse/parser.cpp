// The parser's statement half: token handling, errors, nesting, modules, blocks
// and compound statements (def, class, if, for, while).
#include <set>

#include "parse/parser_impl.h"

namespace d2s {

ast::Module parse_program(std::shared_ptr<const SourceFile> file, const ParseLimits& limits) {
  detail::Parser parser(Lexer(std::move(file), limits.max_nesting), limits);
  return parser.parse_module();
}

namespace detail {

Parser::Parser(Lexer lexer, const ParseLimits& limits, int depth)
    : lexer_(std::move(lexer)), limits_(limits), depth_(depth) {}

Parser::Nest::Nest(Parser& p, const SourceRange& at, int levels) : p_(p), levels_(levels) {
  if (p_.depth_ + levels_ > p_.limits_.max_nesting) p_.fail_nesting(at);
  p_.depth_ += levels_;
}

// -------------------------------------------------------------------- tokens

const Token& Parser::peek(size_t k) {
  while (ahead_.size() <= k) ahead_.push_back(lexer_.next());
  return ahead_[k];
}

Token Parser::take() {
  peek();
  Token tok = std::move(ahead_.front());
  ahead_.pop_front();
  prev_ = tok.range;
  return tok;
}

bool Parser::accept(TokenKind kind) {
  if (!at(kind)) return false;
  take();
  return true;
}

Token Parser::expect(TokenKind kind, const std::string& what) {
  if (!at(kind)) unexpected(peek(), what);
  return take();
}

void Parser::expect_colon(const std::string& statement) {
  if (at(TokenKind::Colon)) {
    take();
    return;
  }
  const Token& tok = peek();
  if (tok.is(TokenKind::Assign)) {
    fail(tok.range, "SyntaxError: invalid syntax: '=' in a condition",
         "use '==' to compare; assign in a separate statement before the " + statement);
  }
  fail(tok.range, "SyntaxError: expected ':'",
       "end the " + statement + " line with ':' (found " + describe_token(tok) + ")");
}

// -------------------------------------------------------------------- errors

void Parser::fail(const SourceRange& at, const std::string& message,
                  const std::string& hint) const {
  throw Error(message, at, hint);
}

void Parser::unexpected(const Token& tok, const std::string& expected) {
  if (tok.is(TokenKind::Indent)) {
    fail(tok.range, "IndentationError: unexpected indent",
         "indent only the body of a def, class, if, for or while; line this up with the "
         "statement before it");
  }
  reject_unsupported_keyword(tok);
  std::string hint;
  bool line_ended = tok.is(TokenKind::Newline) || tok.is(TokenKind::EndOfFile);
  if (line_ended && expected.find("expression") != std::string::npos) {
    hint =
        "the line ends in the middle of an expression; to continue it on the next line, "
        "wrap it in ( )";
  } else if (line_ended) {
    hint = "the line ends too early: complete the statement";
  } else if (expected.find("','") != std::string::npos && starts_expression(tok)) {
    hint = "perhaps you forgot a comma?";
  } else if (expected == "the end of the line" && starts_expression(tok)) {
    hint = "perhaps you forgot an operator or a comma, or meant to start a new line?";
  } else {
    hint = "d2s reads a subset of Python; see the model language in the documentation";
  }
  fail(tok.range,
       "SyntaxError: invalid syntax: expected " + expected + ", found " + describe_token(tok),
       hint);
}

void Parser::not_supported(const SourceRange& at, const std::string& what,
                           const std::string& hint) const {
  fail(at, "NotSupportedError: " + what + " is not supported by d2s", hint);
}

void Parser::fail_nesting(const SourceRange& at) const {
  throw nesting_error(at, limits_.max_nesting);
}

void Parser::reject_unsupported_keyword(const Token& tok) {
  const SourceRange& r = tok.range;
  switch (tok.kind) {
    case TokenKind::KwYield:
      not_supported(r, "'yield'", "build a list and return it");
    case TokenKind::KwAsync:
    case TokenKind::KwAwait:
      not_supported(r, "'" + std::string(token_spelling(tok.kind)) + "'",
                    "model programs are synchronous; use a plain 'def' and plain calls");
    case TokenKind::KwNonlocal:
      not_supported(r, "'nonlocal'", "pass the value in as a parameter and return the new value");
    case TokenKind::Walrus:
      not_supported(r, "':=' (assignment expression)", "assign in a separate statement");
    case TokenKind::Star:
    case TokenKind::DoubleStar:
      not_supported(r, "'" + std::string(token_spelling(tok.kind)) + "' unpacking",
                    "write the elements out one by one");
    default:
      return;
  }
}

// ---------------------------------------------------------------- statements

ast::Module Parser::parse_module() {
  ast::Module module;
  module.file = lexer_.map()->file();
  while (!at(TokenKind::EndOfFile)) {
    if (accept(TokenKind::Newline)) continue;
    parse_statement(module.body);
  }
  return module;
}

void Parser::parse_statement(ast::Body& out) {
  const Token& tok = peek();
  switch (tok.kind) {
    case TokenKind::At:
      out.push_back(parse_decorated());
      return;
    case TokenKind::KwDef:
      out.push_back(parse_def({}));
      return;
    case TokenKind::KwClass:
      out.push_back(parse_class({}));
      return;
    case TokenKind::KwIf:
      out.push_back(parse_if());
      return;
    case TokenKind::KwFor:
      out.push_back(parse_for());
      return;
    case TokenKind::KwWhile:
      out.push_back(parse_while());
      return;
    case TokenKind::KwWith:
      out.push_back(parse_with());
      return;
    case TokenKind::KwTry:
      out.push_back(parse_try());
      return;
    case TokenKind::KwElif:
    case TokenKind::KwElse:
      fail(tok.range,
           "SyntaxError: invalid syntax: '" + std::string(token_spelling(tok.kind)) +
               "' without a matching 'if'",
           "an '" + std::string(token_spelling(tok.kind)) +
               "' must line up with the 'if' whose block just ended");
    case TokenKind::Indent:
      unexpected(tok, "a statement");
    default:
      parse_simple_line(out);
  }
}

// block := simple_line | NEWLINE INDENT stmt+ DEDENT
void Parser::parse_block(ast::Body& out, const Token& keyword, const std::string& what) {
  Nest nest(*this, keyword.range);
  if (!accept(TokenKind::Newline)) {
    switch (peek().kind) {
      case TokenKind::KwDef:
      case TokenKind::KwClass:
      case TokenKind::KwIf:
      case TokenKind::KwFor:
      case TokenKind::KwWhile:
      case TokenKind::KwWith:
      case TokenKind::KwTry:
      case TokenKind::At:
        fail(peek().range,
             "SyntaxError: invalid syntax: a compound statement cannot follow ':' on the same "
             "line",
             "start a new line after the ':' and indent the block");
      default:
        parse_simple_line(out);
        return;
    }
  }
  if (!at(TokenKind::Indent)) {
    fail(peek().range,
         "IndentationError: expected an indented block after " + what + " on line " +
             std::to_string(keyword.range.line),
         "indent the body (4 spaces is usual), or write 'pass' for an empty body");
  }
  take();
  while (!at(TokenKind::Dedent) && !at(TokenKind::EndOfFile)) parse_statement(out);
  accept(TokenKind::Dedent);
}

// decorator* (funcdef | classdef); decorators are kept and ignored.
ast::StmtPtr Parser::parse_decorated() {
  std::vector<ast::ExprPtr> decorators;
  while (accept(TokenKind::At)) {
    decorators.push_back(parse_expr());
    if (!at(TokenKind::Newline)) unexpected(peek(), "a newline after the decorator");
    take();
  }
  if (at(TokenKind::KwDef)) return parse_def(std::move(decorators));
  if (at(TokenKind::KwClass)) return parse_class(std::move(decorators));
  unexpected(peek(), "'def' or 'class' after a decorator");
}

ast::StmtPtr Parser::parse_def(std::vector<ast::ExprPtr> decorators) {
  Token keyword = take();
  auto def = std::make_unique<ast::FunctionDef>(keyword.range);
  def->decorators = std::move(decorators);
  Token name = expect(TokenKind::Name, "a function name after 'def'");
  def->name = name.text;
  def->name_range = name.range;
  expect(TokenKind::LParen, "'(' after the function name");
  parse_params(*def);
  if (accept(TokenKind::Arrow)) def->returns = parse_expr();
  expect_colon("'def'");
  // A function body starts a fresh context: no loop around it, and return is allowed.
  int saved_loops = loop_depth_;
  bool saved_in_function = in_function_;
  loop_depth_ = 0;
  in_function_ = true;
  parse_block(def->body, keyword, "function definition");
  loop_depth_ = saved_loops;
  in_function_ = saved_in_function;
  return def;
}

// param := NAME [':' expr] ['=' expr] | '*' [NAME [':' expr]] | '**' NAME [':' expr],
// after '(' (or `lambda`) and up to `end`: parameters after `*` or `*args` are
// keyword-only, `**kwargs` comes last.
void Parser::parse_params(ast::FunctionDef& def, TokenKind end) {
  Nest nest(*this, prev_);
  std::set<std::string> seen;
  bool had_default = false;
  bool keyword_only = false;
  bool had_varkw = false;
  const bool is_lambda = end != TokenKind::RParen;
  while (!at(end)) {
    const Token& tok = peek();
    if (had_varkw) {
      fail(tok.range, "SyntaxError: arguments cannot follow var-keyword argument",
           "put '**" + def.params.back().name + "' last");
    }
    if (tok.is(TokenKind::Slash)) {
      not_supported(tok.range, "'/' (positional-only parameters)", "remove the '/'");
    }
    ast::ParamKind kind = keyword_only ? ast::ParamKind::KwOnly : ast::ParamKind::Normal;
    SourceRange start = tok.range;
    if (tok.is(TokenKind::Star) || tok.is(TokenKind::DoubleStar)) {
      bool two = tok.is(TokenKind::DoubleStar);
      take();
      if (!two && keyword_only) {
        fail(start, "SyntaxError: * argument may appear only once", "keep one '*' or '*args'");
      }
      if (!two && (at(TokenKind::Comma) || at(end))) {  // a bare `*`
        keyword_only = true;
        if (!accept(TokenKind::Comma)) break;
        continue;
      }
      kind = two ? ast::ParamKind::VarKw : ast::ParamKind::VarArgs;
      if (two)
        had_varkw = true;
      else
        keyword_only = true;
    }
    Token name = expect(TokenKind::Name, "a parameter name");
    ast::Param param;
    param.name = name.text;
    param.kind = kind;
    if (!seen.insert(name.text).second) {
      fail(name.range, "SyntaxError: duplicate argument '" + name.text + "' in function definition",
           "give each parameter its own name");
    }
    if (!is_lambda && accept(TokenKind::Colon)) param.annotation = parse_expr();
    bool star = kind == ast::ParamKind::VarArgs || kind == ast::ParamKind::VarKw;
    if (!star && accept(TokenKind::Assign)) {
      param.default_value = parse_expr();
      if (kind == ast::ParamKind::Normal) had_default = true;
    } else if (had_default && kind == ast::ParamKind::Normal) {
      fail(name.range, "SyntaxError: parameter without a default follows parameter with a default",
           "move '" + name.text + "' before the parameters that have defaults, or give it one");
    }
    param.range = since(start);
    def.params.push_back(std::move(param));
    if (!accept(TokenKind::Comma)) break;
  }
  if (!is_lambda) expect(TokenKind::RParen, "',' or ')' in the parameter list");
}

ast::StmtPtr Parser::parse_class(std::vector<ast::ExprPtr> decorators) {
  Token keyword = take();
  auto cls = std::make_unique<ast::ClassDef>(keyword.range);
  cls->decorators = std::move(decorators);
  Token name = expect(TokenKind::Name, "a class name after 'class'");
  cls->name = name.text;
  cls->name_range = name.range;
  if (accept(TokenKind::LParen)) {
    Nest nest(*this, prev_);
    while (!at(TokenKind::RParen)) {
      if (at(TokenKind::Name) && peek(1).is(TokenKind::Assign)) {
        not_supported(peek().range, "a class keyword argument (such as metaclass=)",
                      "list only base classes, e.g. class M(nn.Module)");
      }
      cls->bases.push_back(parse_expr());
      if (!accept(TokenKind::Comma)) break;
    }
    expect(TokenKind::RParen, "',' or ')' after the base classes");
  }
  expect_colon("'class'");
  int saved_loops = loop_depth_;
  bool saved_in_function = in_function_;
  loop_depth_ = 0;
  in_function_ = false;
  parse_block(cls->body, keyword, "class definition");
  loop_depth_ = saved_loops;
  in_function_ = saved_in_function;
  // A class of nothing but `pass` or a docstring has no methods or attributes d2s
  // could convert; say so here rather than fail obscurely later.
  bool empty = true;
  for (const ast::StmtPtr& s : cls->body) {
    bool docstring =
        s->kind == ast::StmtKind::Expr && s->as<ast::ExprStmt>().value->kind == ast::ExprKind::Str;
    if (s->kind != ast::StmtKind::Pass && !docstring) empty = false;
  }
  if (empty) {
    not_supported(keyword.range, "a 'class' without a body",
                  "give the class an __init__ and a forward method, or remove it");
  }
  return cls;
}

// if/elif/else. The elif chain is built in a loop (each elif nested alone in the
// orelse of the one before), and each elif counts one level of nesting because the
// tree it builds is that deep.
ast::StmtPtr Parser::parse_if() {
  Token keyword = take();
  auto root = std::make_unique<ast::If>(keyword.range);
  root->test = parse_expr();
  expect_colon("'if'");
  parse_block(root->body, keyword, "'if' statement");
  ast::If* current = root.get();
  int saved_depth = depth_;
  while (at(TokenKind::KwElif)) {
    Token elif = take();
    if (depth_ + 1 > limits_.max_nesting) fail_nesting(elif.range);
    ++depth_;
    auto branch = std::make_unique<ast::If>(elif.range);
    branch->is_elif = true;
    branch->test = parse_expr();
    expect_colon("'elif'");
    parse_block(branch->body, elif, "'elif' statement");
    ast::If* next = branch.get();
    current->orelse.push_back(std::move(branch));
    current = next;
  }
  if (at(TokenKind::KwElse)) {
    Token else_kw = take();
    expect_colon("'else'");
    parse_block(current->orelse, else_kw, "'else' statement");
  }
  depth_ = saved_depth;
  return root;
}

ast::StmtPtr Parser::parse_for() {
  Token keyword = take();
  auto loop = std::make_unique<ast::For>(keyword.range);
  loop->target = parse_target_list();
  check_target(*loop->target, TargetUse::For);
  expect(TokenKind::KwIn, "'in' after the loop variable");
  loop->iter = parse_exprlist();
  expect_colon("'for'");
  ++loop_depth_;
  parse_block(loop->body, keyword, "'for' statement");
  --loop_depth_;
  reject_loop_else("for");
  return loop;
}

ast::StmtPtr Parser::parse_while() {
  Token keyword = take();
  auto loop = std::make_unique<ast::While>(keyword.range);
  loop->test = parse_expr();
  expect_colon("'while'");
  ++loop_depth_;
  parse_block(loop->body, keyword, "'while' statement");
  --loop_depth_;
  reject_loop_else("while");
  return loop;
}

// with_stmt := 'with' item (',' item)* ':' block; item := expr ['as' NAME]. Which
// context managers are supported is decided by the routes (ast::grad_context).
ast::StmtPtr Parser::parse_with() {
  Token keyword = take();
  auto with = std::make_unique<ast::With>(keyword.range);
  do {
    ast::WithItem item;
    item.context = parse_expr();
    if (accept(TokenKind::KwAs)) {
      Token name = expect(TokenKind::Name, "a name after 'as'");
      item.target = std::make_unique<ast::Name>(name.range, name.text);
    }
    with->items.push_back(std::move(item));
  } while (accept(TokenKind::Comma));
  expect_colon("'with'");
  parse_block(with->body, keyword, "'with' statement");
  return with;
}

void Parser::reject_loop_else(const char* loop) {
  if (!at(TokenKind::KwElse)) return;
  not_supported(peek().range, std::string("'") + loop + " ... else'",
                "set a flag before 'break' and test it after the loop");
}

}  // namespace detail
}  // namespace d2s
