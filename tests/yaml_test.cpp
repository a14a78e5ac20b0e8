// core/yaml: node and study files through yaml-cpp: positions, nulls, aliases, syntax errors in
// the words users know, limits against hostile documents, and the shared schema checks.
#include "core/yaml.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <chrono>

#include "core/error.hpp"
#include "test_util.hpp"

namespace linkcast::yaml {
namespace {

using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

std::string error_of(const std::string& text) {
  return test::error_of([&] { (void)parse(text, "f.yaml"); });
}

TEST(Yaml, NodesKnowTheirLineAndColumn) {
  // Block map at the top, a flow map inside a block sequence: positions are 1-based, at the
  // node's first character.
  const YAML::Node root = parse("a: 1\nlist:\n  - {id: x, n: 2}\n  - plain\n", "f.yaml");
  ASSERT_TRUE(root.IsMap());
  EXPECT_EQ(root.size(), 2u);
  EXPECT_EQ((++root.begin())->first.Scalar(), "list");
  const YAML::Node list = *find(root, "list");
  ASSERT_TRUE(list.IsSequence());
  EXPECT_EQ(line(list[0]), 3);
  EXPECT_EQ(column(list[0]), 5);
  const YAML::Node n = *find(list[0], "n");
  EXPECT_EQ(n.Scalar(), "2");
  EXPECT_EQ(line(n), 3);
  EXPECT_EQ(column(n), 16);  // "  - {id: x, n: 2}": the 2 is the 16th character
  EXPECT_EQ(list[1].Scalar(), "plain");
}

TEST(Yaml, AbsentKeysAreNotFoundAndNullsAreNotScalars) {
  // YAML core schema: plain '~', 'null' and nothing are null; quoted 'null' is the text null.
  const YAML::Node root = parse("a: ~\nb: null\nc:\nd: 'null'\n", "f.yaml");
  EXPECT_FALSE(find(root, "missing"));
  for (const char* k : {"a", "b", "c"}) {
    ASSERT_TRUE(find(root, k)) << k;
    EXPECT_TRUE(find(root, k)->IsNull()) << k;
  }
  EXPECT_TRUE(find(root, "d")->IsScalar());
  EXPECT_EQ(find(root, "d")->Scalar(), "null");
  EXPECT_FALSE(find(*find(root, "d"), "x"));  // not a map: nothing to find
}

TEST(Yaml, AliasesAreTheirAnchoredNode) {
  // yaml-cpp shares the anchored node: an alias reads as a copy and reports the anchor's position.
  const YAML::Node root = parse("base: &pcie {gen: 5, lanes: 16}\nother: *pcie\n", "f.yaml");
  EXPECT_EQ(find(*find(root, "other"), "lanes")->Scalar(), "16");
  EXPECT_EQ(line(*find(root, "other")), 1);
  EXPECT_EQ(error_of("a: *nowhere\n"), "f.yaml:1:4: alias '*nowhere' names no anchor defined before it");
}

TEST(Yaml, MergeKeysTakeTheMergedMappingsKeysTheMappingLacks) {
  // A robustness hunt (round 29): `- <<: *gpu` with `id: gpu1` (repeated GPUs and links written
  // once) was refused as "unknown key '<<' (did you mean 'id'?)"; PyYAML and libyaml-based tools
  // read it. Keys the mapping gives win; of a list of merged mappings, the first wins.
  const YAML::Node root = parse("a: &a {gen: 5, lanes: 16, type: pcie}\n"
                                "b: &b {gen: 4, width: 2}\n"
                                "c: {<<: *a, lanes: 8}\n"
                                "d: {<<: [*b, *a]}\n"
                                "e: {'<<': 1}\n",
                                "f.yaml");
  const YAML::Node c = *find(root, "c");
  EXPECT_EQ(find(c, "gen")->Scalar(), "5");
  EXPECT_EQ(find(c, "lanes")->Scalar(), "8");
  EXPECT_EQ(find(c, "type")->Scalar(), "pcie");
  EXPECT_FALSE(find(c, "<<"));
  const YAML::Node d = *find(root, "d");
  EXPECT_EQ(find(d, "gen")->Scalar(), "4");
  EXPECT_EQ(find(d, "lanes")->Scalar(), "16");
  EXPECT_EQ(find(d, "width")->Scalar(), "2");
  EXPECT_EQ(find(*find(root, "e"), "<<")->Scalar(), "1");  // quoted: an ordinary key
  // Two merge keys in one mapping are a key given twice: refused (PyYAML keeps the later, a
  // review found the first anchor overwritten), naming the second; a quoted "<<" beside a merge
  // key stays (the merge key, not it, goes).
  EXPECT_EQ(error_of("c: &c {x: 1}\nd: &d {y: 2}\ne: {<<: *c, <<: *d}\n"),
            "f.yaml:3:13: a mapping with two merge keys (`<<`), a key given twice; merge several mappings with one: "
            "`<<: [*a, *b]`");
  const YAML::Node two = parse("c: &c {x: 1}\nf: {'<<': lit, <<: *c}\n", "f.yaml");
  EXPECT_EQ(find(*find(two, "f"), "<<")->Scalar(), "lit");
  EXPECT_EQ(find(*find(two, "f"), "x")->Scalar(), "1");
  // Merging is linear in the keys: 20,000 keys merged (the first version scanned the mapping for
  // each key, quadratic in them).
  std::string many = "a: &a {";
  for (int k = 0; k < 20000; ++k) many += fmt::format("{}k{}: {}", k ? ", " : "", k, k);
  many += "}\nb: {<<: *a, k7: own}\n";
  const YAML::Node big = parse(many, "f.yaml");
  EXPECT_EQ(find(*find(big, "b"), "k19999")->Scalar(), "19999");
  EXPECT_EQ(find(*find(big, "b"), "k7")->Scalar(), "own");
  EXPECT_EQ(error_of("a: {<<: 5}\n"), "f.yaml:1:9: a merge key's value (`<<`) must be a mapping or a list of mappings "
                                      "(an alias of one: `<<: *base`)");
}

TEST(Yaml, EmptyStreamIsNull) {
  EXPECT_TRUE(parse("", "f.yaml").IsNull());
  EXPECT_TRUE(parse("# only a comment\n", "f.yaml").IsNull());
}

TEST(Yaml, SyntaxErrorsNameLineColumnAndWhatWasOpen) {
  EXPECT_EQ(error_of("a: {b: 1\n"),
            "f.yaml:2:1: YAML syntax error: did not find expected ',' or '}' (while parsing a flow mapping at line 1, "
            "column 4)");
  EXPECT_EQ(error_of("a: 1\n\tb: 2\n"),
            "f.yaml:2:1: YAML syntax error: found a tab character that violates indentation (while scanning a plain "
            "scalar at line 1, column 4)");
  // yaml-cpp alone would take a quote left open at the end for a closed one.
  EXPECT_EQ(error_of("a: 'x\n"),
            "f.yaml:2:1: YAML syntax error: found unexpected end of stream (while scanning a quoted scalar at line 1, "
            "column 4)");
  EXPECT_EQ(parse("a: 'it''s'\nb: \"say \\\"hi\\\"\"\n", "f.yaml")["b"].Scalar(), "say \"hi\"");
  // The innermost open collection is named, not the outermost.
  EXPECT_EQ(error_of("a: [1, {b: [2, 3]}\n"),
            "f.yaml:2:1: YAML syntax error: did not find expected ',' or ']' (while parsing a flow sequence at line 1, "
            "column 4)");
}

TEST(Yaml, EveryYamlErrorIsAnInputErrorWithAPosition) {
  // Whatever yaml-cpp refuses comes out as InputError with file:line:column, never as its own
  // exception types.
  for (const char* text : {"{a: 1}}\n", "a: b: c\n", "a: 'x\n", "- a\n b: 1\n", "a: !<x\n", "a: &\n", "? [\n"}) {
    const std::string e = error_of(text);
    EXPECT_THAT(e, HasSubstr("f.yaml:")) << text;
    EXPECT_NE(e, "(no error)") << text;
  }
  EXPECT_EQ(error_of("a: b: c\n"), "f.yaml:1:5: YAML syntax error: mapping values are not allowed in this context");
}

TEST(Yaml, BytesThatAreNotUtf8AreRejectedWithTheirLineAndColumn) {
  // Named by line and column as every other loader error (robustness hunt 37: "at byte 361"), the
  // byte offset beside.
  EXPECT_EQ(error_of("a: \xff\n"), "f.yaml:1:4: YAML syntax error: invalid leading UTF-8 octet (byte 3); node and "
                                   "study files are UTF-8 text");
  EXPECT_THAT([] { (void)parse("a: \xc3", "f.yaml"); },
              ThrowsMessage<InputError>(HasSubstr("f.yaml:1:4: YAML syntax error: incomplete UTF-8 octet sequence (byte 3)")));
  EXPECT_THAT([] { (void)parse("a: 1\nb: \xc3(\n", "f.yaml"); },
              ThrowsMessage<InputError>(HasSubstr("f.yaml:2:5: YAML syntax error: invalid trailing UTF-8 octet (byte 9)")));
  EXPECT_THAT([] { (void)parse("a: \xc0\x80\n", "f.yaml"); },
              ThrowsMessage<InputError>(HasSubstr("invalid length of a UTF-8 sequence (byte 3)")));
  EXPECT_THAT([] { (void)parse(std::string("a: b\0c\n", 7), "f.yaml"); },
              ThrowsMessage<InputError>(HasSubstr("f.yaml:1:5: YAML syntax error: control characters are not allowed (byte 4)")));
  // A byte order mark and characters beyond ASCII are text.
  EXPECT_EQ(parse("\xEF\xBB\xBFname: H\xC3\xA9lium\n", "f.yaml")["name"].Scalar(), "H\xC3\xA9lium");
}

TEST(Yaml, DeepNestingIsAnErrorNotACrash) {
  // 1,000 nested flow sequences: nesting is bounded at 200 levels.
  const std::string text = std::string(1000, '[') + std::string(1000, ']') + "\n";
  EXPECT_EQ(error_of(text), "f.yaml:1:202: YAML nested more than 200 levels deep");
  // 100,000 levels stop in yaml-cpp's own guard, with the same message.
  EXPECT_THAT([] { (void)parse(std::string(100000, '[') + std::string(100000, ']'), "f.yaml"); },
              ThrowsMessage<InputError>(HasSubstr("YAML nested more than 200 levels deep")));
}

TEST(Yaml, AliasesThatExpandPastTheLimitAreRefusedQuickly) {
  // "Billion laughs": each level lists the previous one ten times; 9 levels expand to 10^9 nodes
  // from a few hundred bytes.
  std::string text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int level = 1; level <= 9; ++level) {
    text += fmt::format("a{0}: &a{0} [", level);
    for (int k = 0; k < 10; ++k) text += fmt::format("{}*a{}", k ? ", " : "", level - 1);
    text += "]\n";
  }
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THAT([&] { (void)parse(text, "f.yaml"); },
              ThrowsMessage<InputError>(HasSubstr("the document holds more than 1000000 YAML nodes once its aliases are "
                                                  "expanded")));
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
  // A few aliases are fine.
  EXPECT_EQ(parse("a: &x [1, 2]\nb: [*x, *x]\n", "f.yaml")["b"][1][0].Scalar(), "1");
}

TEST(YamlReader, UnknownAndDuplicateKeysAreNamed) {
  const Reader r("f.yaml");
  const YAML::Node root = parse("id: a\ncuont: 2\n", "f.yaml");
  EXPECT_EQ(test::error_of([&] { (void)r.expect_map(root, "links[0]", {"id", "count"}); }),
            "f.yaml:2:1: links[0]: unknown key 'cuont' (did you mean 'count'?); valid keys: id, count");
  EXPECT_EQ(test::error_of([&] { (void)r.expect_map(parse("id: a\nid: b\n", "f.yaml"), "x", {"id"}); }),
            "f.yaml:2:1: x: duplicate key 'id'");
  EXPECT_EQ(test::error_of([&] { (void)r.require(root, "count", "links[0]"); }),
            "f.yaml:1:1: links[0]: missing required key 'count'");
  const std::vector<std::string> keys = {"id", "count"};
  const Map m = r.expect_map(parse("id: a\n", "f.yaml"), "links[0]", keys);
  EXPECT_EQ(m.find("id")->Scalar(), "a");
  EXPECT_EQ(test::error_of([&] { (void)r.require(m, "count", "links[0]"); }),
            "f.yaml:1:1: links[0]: missing required key 'count'");
  EXPECT_EQ(test::error_of([&] { (void)r.string(parse("a: [1]\n", "f.yaml")["a"], "a"); }),
            "f.yaml:1:4: a must be a single value");
}

}  // namespace
}  // namespace linkcast::yaml
