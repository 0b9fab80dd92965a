/*
 * Each test starts from an empty parameter store with its own HOME and prefix (so the user and system
 * files are the test's own) and no TESSERA_MCA_* in the environment; everything is put back afterwards.
 */
#ifndef TESSERA_TESTS_MCA_VAR_FIXTURE_H
#define TESSERA_TESTS_MCA_VAR_FIXTURE_H

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "mca/report.h"
#include "mca/var_store.h"

extern char **environ;

namespace tessera::mca::test {

class VarTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        report_set_print(false);
        for (const char *name : {"HOME", "TESSERA_PREFIX"}) {
            const char *v = std::getenv(name);
            saved_[name] = v != nullptr ? std::optional<std::string>(v) : std::nullopt;
        }
        clear_mca_environment();
        char pattern[] = "/tmp/tessera-mca-var-XXXXXX";
        ASSERT_NE(mkdtemp(pattern), nullptr);
        dir_ = pattern;
        home_ = dir_ / "home";
        prefix_ = dir_ / "prefix";
        std::filesystem::create_directories(home_ / ".tessera");
        std::filesystem::create_directories(prefix_ / "etc");
        setenv("HOME", home_.c_str(), 1);
        setenv("TESSERA_PREFIX", prefix_.c_str(), 1);
        vars_finalize();
        report_clear();
    }

    void TearDown() override
    {
        vars_finalize();
        report_clear();
        clear_mca_environment();
        for (const auto &[name, value] : saved_) {
            if (value) {
                setenv(name.c_str(), value->c_str(), 1);
            } else {
                unsetenv(name.c_str());
            }
        }
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
    }

    static void clear_mca_environment()
    {
        std::vector<std::string> names;
        for (char **e = environ; *e != nullptr; ++e) {
            std::string entry(*e);
            if (entry.rfind("TESSERA_MCA_", 0) == 0) {
                names.push_back(entry.substr(0, entry.find('=')));
            }
        }
        for (const auto &n : names) {
            unsetenv(n.c_str());
        }
    }

    static void set_mca_env(const std::string &name, const std::string &value)
    {
        setenv(("TESSERA_MCA_" + name).c_str(), value.c_str(), 1);
    }

    /* Writes `text` to `path` (created with its directories) and returns the path. */
    static std::string write_file(const std::filesystem::path &path, const std::string &text)
    {
        std::filesystem::create_directories(path.parent_path());
        std::ofstream out(path, std::ios::binary);
        out << text;
        return path.string();
    }

    std::string system_file() const { return (prefix_ / "etc" / "tessera-mca-params.conf").string(); }
    std::string user_file() const { return (home_ / ".tessera" / "mca-params.conf").string(); }

    static bool any_contains(const std::vector<std::string> &messages, const std::string &part)
    {
        for (const auto &m : messages) {
            if (m.find(part) != std::string::npos) {
                return true;
            }
        }
        return false;
    }

    static std::string joined(const std::vector<std::string> &messages)
    {
        std::string out;
        for (const auto &m : messages) {
            out += m + "\n";
        }
        return out;
    }

    static std::vector<std::string> errors() { return reported(Severity::Error); }
    static std::vector<std::string> warnings() { return reported(Severity::Warning); }

    std::filesystem::path dir_;
    std::filesystem::path home_;
    std::filesystem::path prefix_;

private:
    std::map<std::string, std::optional<std::string>> saved_;
};

} // namespace tessera::mca::test

#endif
