/* The test framework "testfw" (two static components, DSOs in TESTFW_DSO_DIR) and a clean MCA core per test. */
#ifndef TESSERA_TESTS_MCA_FRAMEWORK_TESTFW_FIXTURE_H
#define TESSERA_TESTS_MCA_FRAMEWORK_TESTFW_FIXTURE_H

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "mca/framework.h"
#include "mca/report.h"
#include "testfw.h"

/* What a static test component does when called, and how often it was. */
struct StaticBehaviour {
    int priority = 0;
    int query_rc = TESSERA_SUCCESS;
    int open_rc = TESSERA_SUCCESS;
    int opens = 0;
    int closes = 0;
    int queries = 0;
    int registers = 0;
};

extern StaticBehaviour alpha_behaviour; /* priority 10 */
extern StaticBehaviour beta_behaviour;  /* priority 20 */
extern mca_base_framework_t testfw_framework;
extern mca_base_framework_t testfw2_framework; /* no static components; one broken DSO */

class McaFwTest : public ::testing::Test {
protected:
    void SetUp() override;
    void TearDown() override;
};

std::string dso_path(const std::string &component, const std::string &dir = TESTFW_DSO_DIR);
/* Whether the process has the DSO mapped right now. */
bool dso_loaded(const std::string &path);
/* An int the loaded DSO exports, or nothing if the DSO is not loaded. */
std::optional<int> dso_int(const std::string &path, const char *symbol);

std::vector<std::string> component_names(const mca_base_framework_t *fw);
std::optional<tessera::mca::LoadError> load_error_for(const std::string &file);
/* Every reported message of that severity containing `text`. */
std::vector<std::string> reports_containing(tessera::mca::Severity severity, const std::string &text);

#endif
