// core/yaml: the YAML tree the node and study loaders read (libyaml underneath).
#include "core/yaml.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "test_util.hpp"

namespace linkcast::yaml {
namespace {

std::string error_of(const std::string& text) {
  return test::error_of([&] { (void)parse(text, "f.yaml"); });
}

TEST(Yaml, NodesKnowTheirLineAndColumn) {
  // Block map at the top, a flow map inside a block sequence: positions are 1-based, at the
  // node's first character.
  const Node root = parse("a: 1\nlist:\n  - {id: x, n: 2}\n  - plain\n", "f.yaml");
  ASSERT_TRUE(root.is_map());
  EXPECT_EQ(root.size(), 2u);
  EXPECT_EQ(root.key(1).scalar(), "list");
  const Node& list = root["list"];
  ASSERT_TRUE(list.is_sequence());
  EXPECT_EQ(list[0].line(), 3);
  EXPECT_EQ(list[0].column(), 5);
  EXPECT_EQ(list[0]["n"].scalar(), "2");
  EXPECT_EQ(list[0]["n"].line(), 3);
  EXPECT_EQ(list[0]["n"].column(), 16);  // "  - {id: x, n: 2}": the 2 is the 16th character
  EXPECT_EQ(list[1].scalar(), "plain");
}

TEST(Yaml, AbsentKeysAreFalseAndNullsAreNotScalars) {
  // YAML core schema: plain '~', 'null' and nothing are null; quoted 'null' is the text null.
  const Node root = parse("a: ~\nb: null\nc:\nd: 'null'\n", "f.yaml");
  EXPECT_FALSE(root["missing"]);
  EXPECT_EQ(root.find("missing"), nullptr);
  for (const char* k : {"a", "b", "c"}) {
    EXPECT_TRUE(root[k]) << k;
    EXPECT_TRUE(root[k].is_null()) << k;
  }
  EXPECT_TRUE(root["d"].is_scalar());
  EXPECT_EQ(root["d"].scalar(), "null");
}

TEST(Yaml, AliasesAreCopiesOfTheirAnchor) {
  const Node root = parse("base: &pcie {gen: 5, lanes: 16}\nother: *pcie\n", "f.yaml");
  EXPECT_EQ(root["other"]["lanes"].scalar(), "16");
  EXPECT_EQ(root["other"].line(), 2);  // the alias's own position, for errors
  EXPECT_EQ(error_of("a: *nowhere\n"), "f.yaml:1:4: alias '*nowhere' names no anchor defined before it");
}

TEST(Yaml, EmptyStreamIsNull) {
  EXPECT_TRUE(parse("", "f.yaml").is_null());
  EXPECT_TRUE(parse("# only a comment\n", "f.yaml").is_null());
}

TEST(Yaml, SyntaxErrorsNameLineColumnAndWhatWasOpen) {
  EXPECT_EQ(error_of("a: {b: 1\n"),
            "f.yaml:2:1: YAML syntax error: did not find expected ',' or '}' (while parsing a flow mapping at line 1, "
            "column 4)");
  EXPECT_EQ(error_of("a: 1\n\tb: 2\n"),
            "f.yaml:2:1: YAML syntax error: found a tab character that violates indentation (while scanning a plain "
            "scalar at line 1, column 4)");
}

TEST(Yaml, BytesThatAreNotUtf8AreRejectedWithTheirOffset) {
  EXPECT_EQ(error_of("a: \xff\n"), "f.yaml: YAML syntax error: invalid leading UTF-8 octet at byte 3; node and study "
                                   "files are UTF-8 text");
}

TEST(Yaml, DeepNestingIsAnErrorNotACrash) {
  // 1,000 nested flow sequences: recursion is bounded at 200 levels.
  const std::string text = std::string(1000, '[') + std::string(1000, ']') + "\n";
  EXPECT_EQ(error_of(text), "f.yaml:1:202: YAML nested more than 200 levels deep");
}

TEST(YamlReader, UnknownAndDuplicateKeysAreNamed) {
  const Reader r("f.yaml");
  const Node root = parse("id: a\ncuont: 2\n", "f.yaml");
  try {
    r.expect_map(root, "links[0]", {"id", "count"});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "f.yaml:2:1: links[0]: unknown key 'cuont' (did you mean 'count'?); valid keys: id, count");
  }
  try {
    r.expect_map(parse("id: a\nid: b\n", "f.yaml"), "x", {"id"});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "f.yaml:2:1: x: duplicate key 'id'");
  }
  try {
    (void)r.require(root, "count", "links[0]");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "f.yaml:1:1: links[0]: missing required key 'count'");
  }
  try {
    (void)r.string(parse("a: [1]\n", "f.yaml")["a"], "a");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "f.yaml:1:4: a must be a single value");
  }
}

}  // namespace
}  // namespace linkcast::yaml
