/* cli-commands.h: the subcommands of jvmscope-cli, one file each.
 *
 * Every command takes the arguments after its own name (argv[0] is the command name) and
 * returns a process exit status: 0 for success, 1 for a failure it has already reported on
 * stderr, 2 for a usage error.
 */
#pragma once

int jvms_cli_analyze (int argc, char **argv);
int jvms_cli_compare (int argc, char **argv);
int jvms_cli_critical_path (int argc, char **argv);
int jvms_cli_events  (int argc, char **argv);
int jvms_cli_index   (int argc, char **argv);
int jvms_cli_print   (int argc, char **argv);
int jvms_cli_profile (int argc, char **argv);
int jvms_cli_record  (int argc, char **argv);
int jvms_cli_records (int argc, char **argv);
#ifdef JVMS_CLI_RENDER
int jvms_cli_render  (int argc, char **argv);
#endif
int jvms_cli_summary (int argc, char **argv);
int jvms_cli_version (int argc, char **argv);
