#include "parse/token.h"

namespace d2s {

std::string token_kind_name(TokenKind kind) {
  switch (kind) {
#define D2S_SPECIAL_NAME(k, text) \
  case TokenKind::k:              \
    return text;
    D2S_FORALL_SPECIAL_TOKENS(D2S_SPECIAL_NAME)
#undef D2S_SPECIAL_NAME
    default:
      return "'" + std::string(token_spelling(kind)) + "'";
  }
}

std::string_view token_spelling(TokenKind kind) {
  switch (kind) {
#define D2S_FIXED_SPELLING(k, text) \
  case TokenKind::k:                \
    return text;
    D2S_FORALL_OPERATORS(D2S_FIXED_SPELLING)
    D2S_FORALL_KEYWORDS(D2S_FIXED_SPELLING)
#undef D2S_FIXED_SPELLING
    default:
      return {};
  }
}

bool is_keyword(TokenKind kind) {
  switch (kind) {
#define D2S_KEYWORD_CASE(k, text) case TokenKind::k:
    D2S_FORALL_KEYWORDS(D2S_KEYWORD_CASE)
#undef D2S_KEYWORD_CASE
    return true;
    default:
      return false;
  }
}

std::string describe_token(const Token& tok) {
  switch (tok.kind) {
    case TokenKind::Name:
      return "name '" + tok.text + "'";
    case TokenKind::Int:
    case TokenKind::Float:
      return "number " + tok.text;
    case TokenKind::String:
      return "a string";
    case TokenKind::FString:
      return "an f-string";
    case TokenKind::Indent:
      return "an indent";
    case TokenKind::Dedent:
      return "a dedent";
    default:
      return token_kind_name(tok.kind);
  }
}

}  // namespace d2s
