/* The per-job secret: every wire-up connection and every transport connection must present it. */
#ifndef TESSERA_ORTE_KV_JOB_KEY_H
#define TESSERA_ORTE_KV_JOB_KEY_H

#include <string>
#include <string_view>

namespace tessera::orte {

/* 32 bytes from getrandom(2), as 64 lower-case hex digits. */
std::string generate_job_key();

/* Constant-time comparison, so that a wrong key teaches an attacker nothing by its timing. */
bool job_key_equal(std::string_view a, std::string_view b);

} // namespace tessera::orte

#endif
