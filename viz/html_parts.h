// Pieces of the HTML report (internal to viz/; html_report.h is the interface).
#pragma once

#include <string>
#include <string_view>

#include "convert/diff.h"
#include "viz/diff_picture.h"

namespace d2s::viz::html_parts {

// The page's inline style sheet and script (html_assets.cpp). The script needs no
// network: it links source lines and drawn nodes within each <section class="model">.
extern const char* const kStyle;
extern const char* const kScript;

// Text for HTML content and attribute values.
std::string esc(std::string_view text);

// One model's part of a report (html_sections.cpp): `id` (m0, m1, ...) prefixes every
// element id in it, the inline SVG's included, so that several models share a page.
std::string model_section(const convert::DiffReport& report, const std::string& id,
                          const DiffPictureOptions& options);

// The page around `body`: doctype, head with the style sheet, the script at the end.
std::string page(const std::string& title, const std::string& body);

}  // namespace d2s::viz::html_parts
