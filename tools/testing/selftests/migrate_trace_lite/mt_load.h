/* SPDX-License-Identifier: GPL-2.0 */
/* The commands of mt_helper that mt_load.c defines: its workloads. */
#ifndef MT_LOAD_H
#define MT_LOAD_H

int cmd_affinity(int argc, char **argv);
int cmd_pingpong(int argc, char **argv);
int cmd_forkexec(int argc, char **argv);
int cmd_fifo(int argc, char **argv);
int cmd_deadline(int argc, char **argv);
int cmd_comm(int argc, char **argv);
int cmd_bench_affinity(int argc, char **argv);
int cmd_storm(int argc, char **argv);
int cmd_bench_pingpong(int argc, char **argv);
int cmd_affinity_sleep(int argc, char **argv);
int cmd_sleepers(int argc, char **argv);
int cmd_numa(int argc, char **argv);
int cmd_cookies(int argc, char **argv);
int cmd_mixed(int argc, char **argv);

#endif /* MT_LOAD_H */
