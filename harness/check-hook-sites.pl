#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Prove from the machine code that a disabled hook costs its jump-label
# NOP and nothing else.  For every __jump_table entry keyed mt_hooks_key
# in the objects of an "on" build (both facilities), the site must hold
# a 2- or 5-byte NOP and the out-of-line block it branches to must call
# __mt_*() or store a note into mt_notes; no __mt_*() call or note may
# sit outside such a block.  Then, per function, the instructions left on
# the fall-through path are compared with the same function of an "off"
# build (neither facility: no hooks at all) and those the hooks added are
# counted.  Prints TAP (exit 1 on any "not ok"); --table writes the
# summary that make bench shows.
#
#   check-hook-sites.pl [--off OFF-DIR] [--accept FILE] [--table FILE]
#                       [--name NAME] [--expect-cause N]... [--header H]
#                       [-v] ON-DIR OBJECT...
#
# OBJECT is a path relative to ON-DIR and OFF-DIR, e.g.
# kernel/sched/core.o.  Without --off only the sites are checked (the
# full and i386 builds have no off twin).  --expect-cause N: some
# __mt_migrate_task() site passes cause N, the low byte of its third
# argument (%edx on x86_64, %ecx on i386, regparm), or, for cause 1
# (try_to_wake_up), some site calls the wakeups' own __mt_migrate_wakeup().  --accept FILE:
# "OBJECT FUNCTION COUNT REASON" lines; a function that adds at most
# COUNT instructions passes, with its reason in the TAP line and the
# table.  -v lists the differing instructions of every function.
#
# How the fall-through path is counted
#
# Out-of-line blocks: the instructions reachable from a site's branch
# target that are not reachable from the function's entries when every
# mt_hooks_key site is taken as its NOP (other jump labels, tracepoints
# and sched_feat keys, count as the branches they are).  The walk follows
# jumps into the function's .cold part and stops where the block rejoins
# the main path, returns or tail-calls.  Entries besides the symbol's
# start: the targets of the other jump-table entries and of relocations
# from .rodata, __ex_table and .altinstr_*.
#
# Fall-through path: every instruction reachable from the entries that
# way, minus the mt_hooks_key NOPs and minus padding NOPs.  The off build
# is walked the same way.
#
# Matching: functions are compared by base name (.constprop.N, .isra.N,
# .part.N and .cold folded), so GCC's clones of one source function form
# one group in each build.  When a group exists in one build only (GCC
# inlined it in the other), or calls a local function the other build
# lacks, the comparison unit grows to take in its callers, repeatedly,
# until every member is in both builds or only inlined; the unit's
# instructions are summed and the unit is named by its members joined
# with '+'.
#
# Counting: each instruction is normalised (registers of one width are
# one register, stack-slot offsets and frame sizes are one offset, branch
# targets inside the unit are one label, conditional jumps are one "jcc",
# relocations name their symbol, section symbols without their offset);
# the instructions added are the multiset difference on minus off.  This
# is blind to register renaming, block reordering and inverted branches,
# and still sees any added load, compare, spill, move or jump.  It counts
# static instructions: code GCC duplicates on two exclusive paths counts
# twice though each path runs it once.
use strict;
use warnings;
use FindBin;
use Getopt::Long qw(:config no_ignore_case bundling);

my $P = $0;
$P =~ s@.*/@@g;

my ($off_dir, $table, $header, $accept_file, @expect_cause);
my ($name, $verbose) = ('on', 0);
GetOptions('off=s' => \$off_dir, 'accept=s' => \$accept_file, 'table=s' => \$table,
	   'name=s' => \$name, 'expect-cause=i' => \@expect_cause,
	   'header=s' => \$header, 'v|verbose' => \$verbose)
	or die "$P: usage: $P [--off DIR] [--accept FILE] [--table FILE] ON-DIR OBJECT...\n";
my ($on_dir, @objects) = @ARGV;
die "$P: usage: $P [--off DIR] [--accept FILE] [--table FILE] ON-DIR OBJECT...\n"
	unless defined $on_dir && @objects;

my $KEY = 'mt_hooks_key';
my $NOTES = 'mt_notes';
my $REQUEST = 'stopper request';
my $HOOK = qr/^__mt_(?:migrate_task|migrate_wakeup|note_deferred|copy_process|set_task_comm)$/;

# Cause and reason names by number, from the lists of the header (one
# MT_EM(MT_CAUSE_X, NUMBER, "name") a line; 0 is NONE).
$header //= "$FindBin::Bin/../include/linux/migrate_trace_lite.h";
my @cause_name = ('NONE');
my @reason_name = ('NONE');
if (open(my $fh, '<', $header)) {
	while (<$fh>) {
		next unless /^\s*MT_EM\(MT_(CAUSE|REASON)_(\w+), (\d+),/;
		($1 eq 'CAUSE' ? \@cause_name : \@reason_name)->[$3] = $2;
	}
	close($fh);
}

# The output of a command run with backticks, or die.
sub lines {
	my ($what, @out) = @_;
	die "$P: $what failed\n" if $?;
	return @out;
}

sub hexval {
	my ($s) = @_;
	return $s =~ /^0x/ ? hex($s) : $s;
}

# Base name: GCC's clones and cold parts belong to their function.
sub base {
	my ($n) = @_;
	1 while $n =~ s/\.(?:constprop|isra|part|cold|lto_priv|localalias)(?:\.\d+)?$//;
	return $n;
}

# Read an object: sections, symbols, relocations, instructions and the
# jump table.  Code addresses are "SECTION:OFFSET" strings.
sub load {
	my ($path) = @_;
	my %o = (path => $path);

	for (lines("readelf $path", `readelf -hW '$path'`)) {
		$o{arch} = /X86-64/ ? 'x86_64' : 'i386' if /^\s*Machine:/;
	}
	die "$P: $path: not an x86 object\n" unless $o{arch};
	$o{wide} = $o{arch} eq 'x86_64';

	my %sec_of;
	for (lines("readelf $path", `readelf -SW '$path'`)) {
		next unless /^\s*\[\s*(\d+)\]\s+(\S+)\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+\s*(\S*)/;
		my ($idx, $sname, $flags) = ($1, $2, $3);
		next if $idx == 0;
		$sec_of{$idx} = $sname;
		$o{has}{$sname} = 1;
		$o{exec}{$sname} = 1 if $flags =~ /X/;
	}
	for (lines("readelf $path", `readelf -sW '$path'`)) {
		my @f = split;
		next unless @f >= 7 && $f[0] =~ /^\d+:$/ && $f[6] =~ /^\d+$/;
		my $sec = $sec_of{$f[6]} // next;
		my ($value, $size, $type) = (hex($f[1]), hexval($f[2]), $f[3]);
		my $sym = $f[7] // $sec;
		$sym = $sec if $type eq 'SECTION';
		$o{def}{$sym} //= [$sec, $value];
		$o{local}{$sym} = 1 if $f[4] eq 'LOCAL';
		if ($type eq 'FUNC' && $size) {
			push @{$o{funcs}}, { name => $sym, sec => $sec, start => $value,
					     end => $value + $size, base => base($sym) };
		} elsif ($type eq 'OBJECT') {
			$o{object_at}{"$sec:$value"} = $sym;
		}
	}
	$o{funcs} //= [];
	for my $f (@{$o{funcs}}) {
		push @{$o{func_list}{$f->{sec}}}, $f;
		push @{$o{group}{$f->{base}}}, $f;
	}
	@$_ = sort { $a->{start} <=> $b->{start} } @$_ for values %{$o{func_list}};

	# Relocations of every section (RELA: with addend; REL: in place).
	my $cur;
	for (lines("readelf $path", `readelf -rW '$path'`)) {
		if (/^Relocation section '\.rela?(\S+)'/) {
			$cur = $1;
			$o{rela} = /'\.rela/ ? 1 : 0;
			next;
		}
		next unless defined $cur &&
			/^([0-9a-f]+)\s+[0-9a-f]+\s+(R_\S+)\s+[0-9a-f]+\s+(\S+)(?:\s+([+-])\s+([0-9a-f]+))?/;
		my $add = defined $4 ? ($4 eq '-' ? -hex($5) : hex($5)) : undef;
		push @{$o{relocs}{$cur}}, { off => hex($1), type => $2, sym => $3, add => $add };
	}

	# Instructions.
	my $sec;
	for (lines("objdump $path", `objdump -drw '$path'`)) {
		if (/^Disassembly of section (\S+):/) {
			$sec = $1;
			next;
		}
		next unless defined $sec &&
			/^\s*([0-9a-f]+):\t((?:[0-9a-f]{2} ?)+)\s*\t([^\t]*)(.*)$/;
		my ($off, $bytes, $text, $rest) = (hex($1), $2, $3, $4);
		my @b = map { hex } split ' ', $bytes;
		$text =~ s/\s+$//;
		$text =~ s/\s+#.*//;
		my @rels;
		while ($rest =~ /\t([0-9a-f]+): (R_\S+)\t(\S+)/g) {
			my ($roff, $type, $expr) = (hex($1), $2, $3);
			my ($sym, $add) = ($expr, undef);
			if ($expr =~ /^(.+?)([+-])0x([0-9a-f]+)$/) {
				($sym, $add) = ($1, $2 eq '-' ? -hex($3) : hex($3));
			}
			# REL objects keep the addend in the instruction bytes.
			if (!defined $add) {
				my $i = $roff - $off;
				$add = $type =~ /(?:PC32|PLT32|_32)$/ && $i + 4 <= @b
					? unpack('l<', pack('C4', @b[$i .. $i + 3])) : 0;
			}
			push @rels, { off => $roff, type => $type, sym => $sym, add => $add };
		}
		my $i = { sec => $sec, off => $off, len => scalar(@b), bytes => \@b,
			  text => $text, rels => \@rels };
		$o{insn}{"$sec:$off"} = $i;
		push @{$o{order}{$sec}}, $off;
	}

	# Jump table: struct jump_entry { s32 code, target; long key; }.
	my $esz = $o{wide} ? 16 : 12;
	my %field;
	my @jtb;
	@jtb = section_bytes($path, '__jump_table') if !$o{rela} && $o{has}{__jump_table};
	for my $r (@{$o{relocs}{__jump_table} // []}) {
		my $add = $r->{add};
		$add = unpack('l<', pack('C4', @jtb[$r->{off} .. $r->{off} + 3])) if !defined $add;
		$field{$r->{off}} = [$r->{sym}, $add];
	}
	for my $e (sort { $a <=> $b } grep { $_ % $esz == 0 } keys %field) {
		my ($code, $tgt, $key) = @field{$e, $e + 4, $e + 8};
		next unless $code && $tgt && $key;
		# A key defined in this object is reached through its section.
		my ($kname, $kadd) = @$key;
		if ($kname =~ /^\./) {
			my $d = $o{def}{$kname};
			$kname = $d && $o{object_at}{"$d->[0]:" . ($d->[1] + ($kadd & ~3))} // "$kname+$kadd";
		}
		my ($c, $t) = (at(\%o, @$code), at(\%o, @$tgt));
		next unless defined $c && defined $t;
		push @{$o{jt}}, { code => $c, target => $t, key => $kname, flags => $kadd & 3 };
	}
	$o{jt} //= [];

	# Other entries into functions than their first byte.
	my %root;
	for my $e (@{$o{jt}}) {
		$root{$e->{target}} = 1 if $e->{key} ne $KEY;
	}
	for my $s (keys %{$o{relocs}}) {
		next unless $s =~ /^(?:\.rodata|__ex_table|\.altinstr_aux|\.altinstr_replacement)/;
		my $code = $o{exec}{$s};
		my @sb = $o{rela} ? () : section_bytes($path, $s);
		for my $r (@{$o{relocs}{$s}}) {
			my $d = $o{def}{$r->{sym}} or next;
			next unless $o{exec}{$d->[0]};
			my $add = $r->{add} //
				unpack('l<', pack('C4', map { $_ // 0 } @sb[$r->{off} .. $r->{off} + 3]));
			$add += 4 if $code && $r->{type} =~ /PC32|PLT32/;
			$root{"$d->[0]:" . ($d->[1] + $add)} = 1;
		}
	}
	$o{root} = \%root;
	$o{mtsite}{$_->{code}} = $_ for grep { $_->{key} eq $KEY } @{$o{jt}};
	$o{otherjl}{$_->{code}} = $_->{target} for grep { $_->{key} ne $KEY } @{$o{jt}};
	analyse(\%o);
	return \%o;
}

# Where SYMBOL + ADDEND points, as "SECTION:OFFSET".
sub at {
	my ($o, $sym, $add) = @_;
	my $d = $o->{def}{$sym} or return undef;
	return "$d->[0]:" . ($d->[1] + $add);
}

sub section_bytes {
	my ($path, $s) = @_;
	my @b;
	for (lines("objdump $path", `objdump -s -j '$s' '$path'`)) {
		next unless /^ ([0-9a-f]+) (.{35})/;
		my ($at, $hex) = (hex($1), $2);
		$hex =~ s/\s+//g;
		$b[$at++] = hex($1) while $hex =~ /\G([0-9a-f]{2})/g;
	}
	return @b;
}

# Does INSN refer to the per-CPU notes (mt_note(), mt_noted())?
sub notes_ref {
	my ($o, $i) = @_;
	for my $r (@{$i->{rels}}) {
		return 1 if $r->{sym} eq $NOTES;
		my $d = $o->{def}{$r->{sym}};
		return 1 if $d && $r->{sym} =~ /^\./ &&
			($o->{object_at}{"$r->{sym}:" . ($d->[1] + $r->{add})} // '') eq $NOTES;
	}
	return 0;
}

sub func_at {
	my ($o, $sec, $off) = @_;
	for my $f (@{$o->{func_list}{$sec} // []}) {
		return $f if $off >= $f->{start} && $off < $f->{end};
	}
	return undef;
}

# Control flow of each instruction: successors in the object, the callee
# or the tail-called symbol, and the normalised text.
sub analyse {
	my ($o) = @_;
	for my $sec (keys %{$o->{order}}) {
		my @offs = @{$o->{order}{$sec}};
		for my $k (0 .. $#offs) {
			my $i = $o->{insn}{"$sec:$offs[$k]"};
			my $next = $k < $#offs ? "$sec:$offs[$k + 1]" : undef;
			my ($mn, $ops) = split_insn($i->{text});
			$i->{mn} = $mn;
			my $dest;	# "sec:off" or an external name
			if ($mn =~ /^(?:call|jmp|j[a-z]+|loop\w*)$/ && $ops !~ /^\*/) {
				my ($r) = grep { $_->{type} =~ /PC32|PLT32|PC8/ } @{$i->{rels}};
				if ($r) {
					my $d = $o->{def}{$r->{sym}};
					my $end = $i->{off} + $i->{len};
					$dest = $d ? "$d->[0]:" . ($d->[1] + $r->{add} + $end - $r->{off})
						   : $r->{sym};
				} elsif ($ops =~ /^([0-9a-f]+)\b/) {
					$dest = "$sec:" . hex($1);
				}
			}
			my @succ;
			if ($mn eq 'call') {
				$i->{callee} = $dest // '*';
				push @succ, $next if $next;
			} elsif ($mn eq 'jmp') {
				if (defined $dest && $dest =~ /:\d+$/) {
					push @succ, $dest;
				} else {
					$i->{tail} = $dest // '*';
				}
			} elsif ($mn =~ /^(?:j[a-z]+|loop\w*)$/) {
				push @succ, $dest if defined $dest && $dest =~ /:\d+$/;
				push @succ, $next if $next;
			} elsif ($mn =~ /^(?:ret\w*|iret\w*|lret\w*|ud2|ud1\w*|int3|sysret\w*|sysexit)$/) {
				# no successor
			} else {
				push @succ, $next if $next;
			}
			$i->{succ} = \@succ;
			$i->{dest} = $dest;
			$i->{nop} = $mn =~ /^(?:nop\w*|xchg)$/ && ($mn ne 'xchg' || $ops eq '%ax,%ax') ||
				$i->{text} =~ /^(?:data16 |cs |ds )+nop/ || $mn eq 'int3' ||
				(!$o->{wide} && $i->{text} =~ /^(?:lea\s+(?:%ds:)?0x0\(%esi(?:,%eiz,1)?\),%esi|mov\s+%esi,%esi)$/);
		}
	}
}

sub split_insn {
	my ($t) = @_;
	my @w = split ' ', $t;
	my @pre;
	push @pre, shift @w while @w > 1 && $w[0] =~ /^(?:lock|rep\w*|data16|cs|ds|es|ss|notrack|bnd)$/;
	my $mn = shift(@w) // '';
	$mn =~ s/q$// if $mn =~ /^(?:callq|jmpq|retq)$/;
	return (join(' ', @pre, $mn), join(' ', @w));
}

# The address where INSN branches: through the jump table for a site.
sub reach {
	my ($o, $roots, $stop, $group) = @_;
	my %seen;
	my @work = @$roots;
	while (defined(my $a = shift @work)) {
		next if $seen{$a} || ($stop && $stop->{$a});
		my $i = $o->{insn}{$a} or next;
		my $f = func_at($o, $i->{sec}, $i->{off});
		next unless $f && $group->{$f->{base}};
		$seen{$a} = 1;
		my @s = @{$i->{succ}};
		if ($o->{mtsite}{$a}) {
			# The NOP falls through; its branch is the hook.
		} elsif (my $t = $o->{otherjl}{$a}) {
			push @s, $t;
		}
		push @work, @s;
	}
	return \%seen;
}

# Main path of a group of functions (one base name): from the entries.
sub main_path {
	my ($o, $base) = @_;
	return $o->{main}{$base} if $o->{main}{$base};
	my @roots;
	for my $f (@{$o->{group}{$base} // []}) {
		push @roots, "$f->{sec}:$f->{start}" unless $f->{name} =~ /\.cold(?:\.\d+)?$/;
		for my $r (keys %{$o->{root}}) {
			my ($s, $x) = split /:/, $r;
			push @roots, $r if $s eq $f->{sec} && $x >= $f->{start} && $x < $f->{end};
		}
	}
	return $o->{main}{$base} = reach($o, \@roots, undef, { $base => 1 });
}

my %REGW;
{
	my @q = qw(rax rbx rcx rdx rsi rdi rbp r8 r9 r10 r11 r12 r13 r14 r15);
	$REGW{$_} = 'q' for @q;
	$REGW{$_} = 'l' for qw(eax ebx ecx edx esi edi ebp), map { "r${_}d" } 8 .. 15;
	$REGW{$_} = 'w' for qw(ax bx cx dx si di bp), map { "r${_}w" } 8 .. 15;
	$REGW{$_} = 'b' for qw(al bl cl dl ah bh ch dh sil dil bpl), map { "r${_}b" } 8 .. 15;
}

# A register by its width only; with a frame pointer %rbp stays itself.
sub reg {
	my ($r, $fp) = @_;
	return "%$r" unless exists $REGW{$r};
	return "%$r" if $fp && $r =~ /^[re]bp$/;
	return "%R$REGW{$r}";
}

# The normalised form of an instruction, for the multiset comparison.
sub norm {
	my ($o, $i, $unit, $fp) = @_;
	my ($mn, $ops) = split_insn($i->{text});
	if (defined $i->{dest} || $mn =~ /^(?:call|jmp)$/) {
		my $d = $i->{dest};
		my $t;
		if (!defined $d) {
			($t = $ops) =~ s/%(\w+)/reg($1, $fp)/ge;
		} elsif ($d =~ /^(.+):(\d+)$/) {
			my $f = func_at($o, $1, $2);
			$t = !$f ? $d : $unit->{$f->{base}} && $mn ne 'call' ? 'L' :
			     $f->{base} . ($2 == $f->{start} ? '' : '+x');
		} else {
			$t = $d;
		}
		$mn = 'jcc' if $mn =~ /^j/ && $mn ne 'jmp';
		return "$mn $t";
	}
	$ops =~ s/<[^>]*>//g;
	# Stack slots and frame sizes.
	my $sp = $fp ? qr/%[re][sb]p/ : qr/%[re]sp/;
	$ops =~ s/(?<![\w)])(-?0x[0-9a-f]+)?(\($sp[,)])/S$2/g;
	$ops =~ s/^\$0x[0-9a-f]+,%([re]sp)$/\$F,%$1/ if $mn =~ /^(?:add|sub)/;
	$ops =~ s/%(\w+)/reg($1, $fp)/ge;
	my @r;
	for my $r (@{$i->{rels}}) {
		my $s = $r->{sym};
		if ($s =~ /^\./) {
			push @r, $s;
		} else {
			my $d = $o->{def}{$s};
			my $f = $d && func_at($o, @$d);
			push @r, $f ? $f->{base} : sprintf('%s%+d', $s, $r->{add});
		}
	}
	return join(' ', $mn, $ops, @r ? ('{' . join(',', @r) . '}') : ());
}

# What the out-of-line block passes in REG before its call: the value if
# it is an immediate, else its low byte (the cause) if that is known.
sub arg_of {
	my ($o, $path, $reg) = @_;
	my %alias = (edx => qr/^%(?:r?dx|edx|dl)$/, ecx => qr/^%(?:ecx|cx|cl)$/,
		     esi => qr/^%(?:r?si|esi|sil)$/);
	my $re = $alias{$reg};
	my ($val, $low);
	for my $i (@$path) {
		my ($mn, $ops) = split_insn($i->{text});
		my @a = split /,/, $ops;
		next unless @a && $a[-1] =~ $re;
		my $imm = $a[0] =~ /^\$(0x[0-9a-f]+|\d+)$/ ? hexval($1) : undef;
		if ($mn =~ /^mov/ && defined $imm) {
			($val, $low) = ($imm, $imm & 0xff);
		} elsif ($mn eq 'xor' && @a == 2 && $a[0] eq $a[1]) {
			($val, $low) = (0, 0);
		} elsif ($mn =~ /^sh[l]/ && defined $imm && $imm >= 8) {
			($val, $low) = (undef, 0);
		} elsif ($mn =~ /^or/ && defined $imm && defined $low) {
			($val, $low) = (undef, $low | ($imm & 0xff));
		} else {
			($val, $low) = (undef, undef);
		}
	}
	return ($val, $low);
}

# Functions where the hooks may add instructions, with the count and
# the reason: OBJECT FUNCTION COUNT REASON (FUNCTION: a comparison unit,
# its members joined by '+').
my %accepted;
if (defined $accept_file) {
	open(my $fh, '<', $accept_file) or die "$P: $accept_file: $!\n";
	while (<$fh>) {
		next if /^\s*(#|$)/;
		my ($obj, $unit, $count, $reason) = /^(\S+)\s+(\S+)\s+(\d+)\s+(\S.*)$/
			or die "$P: $accept_file:$.: want 'OBJECT FUNCTION COUNT REASON'\n";
		$accepted{"$obj $unit"} = [$count, $reason];
	}
	close($fh);
}

my (@tap, @rows, @units, %cause_seen);
my ($nsites, $nnop, $nhooked) = (0, 0, 0);

sub tap {
	my ($ok, $msg, @diag) = @_;
	push @tap, { ok => $ok, msg => $msg, diag => \@diag };
}

sub by_address {
	my ($as, $ax) = split /:/, $a;
	my ($bs, $bx) = split /:/, $b;
	return $as cmp $bs || $ax <=> $bx;
}

# Callers of group G (functions that call or jump to it), by base name.
sub callers {
	my ($o, $g) = @_;
	my %c;
	for my $i (values %{$o->{insn}}) {
		my $d = $i->{dest};
		next unless defined $d && $d =~ /^(.+):(\d+)$/;
		my $t = func_at($o, $1, $2) or next;
		next unless $t->{base} eq $g;
		my $f = func_at($o, $i->{sec}, $i->{off}) or next;
		$c{$f->{base}} = 1 if $f->{base} ne $g;
	}
	return keys %c;
}

# Local functions group G calls or jumps to, by base name.
sub callees {
	my ($o, $g) = @_;
	my %c;
	for my $f (@{$o->{group}{$g} // []}) {
		for my $x (@{$o->{order}{$f->{sec}}}) {
			next if $x < $f->{start} || $x >= $f->{end};
			my $d = $o->{insn}{"$f->{sec}:$x"}{dest};
			next unless defined $d && $d =~ /^(.+):(\d+)$/;
			my $t = func_at($o, $1, $2) or next;
			$c{$t->{base}} = 1 if $t->{base} ne $g && $o->{local}{$t->{name}};
		}
	}
	return keys %c;
}

# Conditional jumps and their inverses.
my %inverse = (je => 'jne', jb => 'jae', jbe => 'ja', jl => 'jge', jle => 'jg',
	       js => 'jns', jo => 'jno', jp => 'jnp');
%inverse = (%inverse, reverse %inverse);

# Whether the instructions @dup, which end in a jmp, copy the fall-through
# path from address $a: GCC's tail duplication puts the few instructions
# after a site into its out-of-line block too.  Each must be the same
# instruction (text and relocations) as the fall-through path's, in order;
# a conditional jump may be the inverse of the path's, its target then
# the path's next instruction, and the copy goes on where the path's
# jump goes.  The last jmp goes where the path then is, or where the
# path's own jmp at that point goes.
sub copies_fall_through {
	my ($on, $a, @dup) = @_;
	my $last = pop @dup;
	my $rels = sub { join(',', map { "$_->{sym}$_->{add}" } @{$_[0]{rels}}) };
	my $mn = sub { (split_insn($_[0]{text}))[0] };
	return 0 unless $last && $last->{text} =~ /^jmp\s/ && defined $last->{dest};
	for my $d (@dup) {
		my $j = $on->{insn}{$a};
		return 0 unless $j && !defined($j->{callee}) && $j->{text} !~ /^jmp\s/ &&
			$rels->($j) eq $rels->($d);
		my $next = $j->{off} + $j->{len};
		if ($j->{text} eq $d->{text} && @{$j->{succ}} == 1) {
			$a = $j->{succ}[0];
		} elsif (($inverse{$mn->($j)} // '') eq $mn->($d) && defined $j->{dest} &&
			 ($d->{dest} // '') eq "$j->{sec}:$next") {
			$a = $j->{dest};
		} else {
			return 0;
		}
	}
	my $j = $on->{insn}{$a};
	return $last->{dest} eq $a ||
		($j && $j->{text} =~ /^jmp\s/ && ($j->{dest} // '') eq $last->{dest});
}

# One site: its NOP, its out-of-line block and what that block does.
sub check_site {
	my ($on, $obj, $s) = @_;
	my ($sec, $x) = split /:/, $s->{code};
	my $i = $on->{insn}{$s->{code}};
	my $f = func_at($on, $sec, $x);
	my $where = sprintf('%s+0x%x', $f ? $f->{name} : $sec, $x - ($f ? $f->{start} : 0));
	my ($nop, $hook, $why, @bad) = ('', '', '');
	$nsites++;
	if (!$i) {
		push @bad, 'no instruction at the site';
	} elsif ($i->{nop} && ($i->{len} == 5 || $i->{len} == 2)) {
		$nop = "$i->{len}-byte NOP";
		$nnop++;
	} else {
		push @bad, "'$i->{text}' ($i->{len} bytes) at the site, not a 2- or 5-byte NOP";
	}
	# A static_branch_unlikely() of a false key: the NOP is its state.
	push @bad, 'a static_branch_likely() or true key: its off state is not the NOP'
		if $s->{flags} & 1;
	push @bad, 'not inside a function' unless $f;
	my $ool = {};
	if ($f) {
		my $main = main_path($on, $f->{base});
		$ool = reach($on, [$s->{target}], $main, { $f->{base} => 1 });
		# The straight line from the block's start to its __mt_*() call.
		my (@path, %been, $forked);
		my $a = $s->{target};
		while (defined $a && !$been{$a}++ && $ool->{$a}) {
			my $j = $on->{insn}{$a};
			push @path, $j;
			my $c = $j->{callee} // $j->{tail};
			if (defined $c && $c =~ $HOOK) {
				$hook = $c;
				last;
			}
			$forked = 1 if @{$j->{succ}} > 1;
			$a = $j->{succ}[-1];
		}
		my @block = map { $on->{insn}{$_} } sort by_address keys %$ool;
		if (!$hook) {
			for my $j (@block) {
				my $c = $j->{callee} // $j->{tail};
				($hook, $forked) = ($c, 1) if defined $c && $c =~ $HOOK;
			}
		}
		my @stores = grep { notes_ref($on, $_) } @block;
		my $reg = $on->{wide} ? 'edx' : 'ecx';
		if ($hook eq '__mt_migrate_task') {
			my ($v, $c) = $forked ? () : arg_of($on, \@path, $reg);
			if (defined $c) {
				$cause_seen{$c} .= " $obj:$where";
				$why = "cause $c" . ($cause_name[$c] ? " $cause_name[$c]" : '');
				my $r = defined $v ? $v >> 8 : undef;
				$why .= !defined $r ? ', reason computed' :
					$r ? " reason $r" . ($reason_name[$r] ? " $reason_name[$r]" : '') : '';
			} else {
				$why = "cause in %$reg, computed";
			}
		} elsif ($hook eq '__mt_migrate_wakeup') {
			# The wakeups' hook: the cause is its name's.
			$cause_seen{1} .= " $obj:$where";
			$why = 'cause 1' . ($cause_name[1] ? " $cause_name[1]" : '') . ', reason computed';
		} elsif ($hook eq '__mt_note_deferred') {
			my $nreg = $on->{wide} ? 'esi' : 'edx';
			my ($v) = $forked ? () : arg_of($on, \@path, $nreg);
			$why = defined $v ? "reason $v" . ($reason_name[$v] ? " $reason_name[$v]" : '')
					  : "reason in %$nreg, computed";
		} elsif (!$hook && @stores) {
			# mt_note() and mt_noted() store into mt_notes inline.
			$hook = $NOTES;
			my ($imm) = map { /^\$(0x[0-9a-f]+|\d+),/ ? hexval($1) : () }
				map { (split_insn($_->{text}))[1] } @stores;
			$why = (@stores > 1 ? 'task, ' : '') .
				(defined $imm ? "reason $imm" . ($reason_name[$imm] ? " $reason_name[$imm]" : '')
					      : 'reason computed');
		} elsif (!$hook) {
			# mt_arg_set_reason(): a constant reason byte into a
			# stopper's request (struct migration_arg), then back,
			# maybe through a copy of what follows the site.
			my ($set, @after) = @path;
			my ($imm) = map { /^\$(0x[0-9a-f]+|\d+),/ ? hexval($1) : () }
				map { (split_insn($_->{text}))[1] }
				grep { $_->{text} =~ /^movb\s+\$/ } $set // ();
			my $back = !grep({ $_->{text} !~ /^jmp\s/ } @after) ||
				copies_fall_through($on, "$sec:" . ($x + $i->{len}), @after);
			if (defined $imm && $reason_name[$imm] && $back && @path == @block) {
				$hook = $REQUEST;
				$why = "reason $imm $reason_name[$imm]";
			}
		}
		if ($hook) {
			$nhooked++;
		} else {
			push @bad, "its out-of-line block neither calls __mt_*() nor stores to $NOTES" .
				" nor a reason into a $REQUEST";
		}
	}
	my $does = !$hook ? '' : $hook eq $NOTES ? "out of line it stores the note in $NOTES" :
		$hook eq $REQUEST ? "out of line it stores the reason into a $REQUEST" :
		"out of line it calls $hook";
	tap(!@bad, "$name: $obj $where: " .
	    (@bad ? join('; ', @bad) : join(', ', $nop, $does) . ($why ne '' ? " ($why)" : '')));
	push @rows, { obj => $obj, where => $where, base => $f ? $f->{base} : '',
		      nop => $i && $i->{nop} ? $i->{len} : 0, hook => $hook || '-',
		      why => $why || '-' };
	return $ool;
}

# Compare the fall-through path of the unit holding group B0 with the off
# build.  Returns the unit's members.
sub compare_unit {
	my ($on, $off, $obj, $b0, $sites_of) = @_;
	my %U = ($b0 => 1);
	for (my $grow = 1; $grow;) {
		$grow = 0;
		for my $g (keys %U) {
			my @add;
			my ($in_on, $in_off) = ($on->{group}{$g}, $off->{group}{$g});
			push @add, callers($in_on ? $on : $off, $g) if !$in_on != !$in_off;
			push @add, grep { !$on->{group}{$_} } callees($off, $g);
			push @add, grep { !$off->{group}{$_} } callees($on, $g);
			for (grep { !$U{$_} } @add) {
				$U{$_} = 1;
				$grow = 1;
			}
		}
	}
	my @members = sort keys %U;
	my (@ins_on, @ins_off);
	for my $g (@members) {
		push @ins_on, grep { !$_->{nop} && !$on->{mtsite}{"$_->{sec}:$_->{off}"} }
			map { $on->{insn}{$_} } keys %{main_path($on, $g)} if $on->{group}{$g};
		push @ins_off, grep { !$_->{nop} }
			map { $off->{insn}{$_} } keys %{main_path($off, $g)} if $off->{group}{$g};
	}
	# With a frame pointer, %rbp addresses stack slots too.
	my $fp = grep { $_->{text} =~ /^mov\s+%([re])sp,%\1bp$/ } @ins_on, @ins_off;
	my (%bag_on, %bag_off);
	$bag_on{norm($on, $_, \%U, $fp)}++ for @ins_on;
	$bag_off{norm($off, $_, \%U, $fp)}++ for @ins_off;
	my ($added, $removed, @diag) = (0, 0);
	for my $k (sort keys %bag_on) {
		my $d = $bag_on{$k} - ($bag_off{$k} // 0);
		next unless $d > 0;
		$added += $d;
		push @diag, "#   + $k" . ($d > 1 ? " (x$d)" : '');
	}
	for my $k (sort keys %bag_off) {
		my $d = $bag_off{$k} - ($bag_on{$k} // 0);
		next unless $d > 0;
		$removed += $d;
		push @diag, "#   - $k" . ($d > 1 ? " (x$d)" : '');
	}
	my $nsite = 0;
	$nsite += $sites_of->{$_} // 0 for @members;
	my $label = join('+', grep { $on->{group}{$_} || $off->{group}{$_} } @members);
	my $acc = $accepted{"$obj $label"};
	my $ok = !$added || ($acc && $added <= $acc->[0]);
	my $msg = sprintf('%s: %s %s: %d instruction%s added on the fall-through path ' .
			  '(%d site%s; %d instructions on, %d off)', $name, $obj, $label,
			  $added, $added == 1 ? '' : 's', $nsite, $nsite == 1 ? '' : 's',
			  scalar(@ins_on), scalar(@ins_off));
	$msg .= " # accepted ($acc->[0]): $acc->[1]" if $added && $acc && $ok;
	tap($ok, $msg, ($added && (!$ok || $verbose)) || $verbose ? @diag : ());
	$tap[-1]{unit} = 1;
	push @units, { obj => $obj, label => $label, added => $added, removed => $removed,
		       sites => $nsite, accepted => $ok && $added ? $acc : undef };
	return @members;
}

for my $obj (@objects) {
	my $on_path = "$on_dir/$obj";
	unless (-s $on_path) {
		tap(0, "$name: $obj: missing in $on_dir (run make matrix)");
		next;
	}
	my $on = load($on_path);
	my (%sites_of, %in_ool);
	for my $code (sort by_address keys %{$on->{mtsite}}) {
		my $ool = check_site($on, $obj, $on->{mtsite}{$code});
		$in_ool{$_} = 1 for keys %$ool;
		my ($s, $x) = split /:/, $code;
		my $f = func_at($on, $s, $x);
		$sites_of{$f->{base}}++ if $f;
	}

	# No __mt_*() call and no note outside the out-of-line blocks: a
	# hook without its static branch.  Not in the facility's own objects
	# (the KUnit suite calls __mt_migrate_task() directly).
	my $own = $obj =~ m@(?:^|/)migrate_trace_lite[^/]*\.o$@;
	unless ($own) {
		my @stray;
		for my $a (sort by_address keys %{$on->{insn}}) {
			next if $in_ool{$a};
			my $j = $on->{insn}{$a};
			my $c = $j->{callee} // $j->{tail};
			my $what = defined $c && $c =~ $HOOK ? "calls $c" :
				notes_ref($on, $j) ? "stores to $NOTES" : next;
			my $f = func_at($on, $j->{sec}, $j->{off});
			push @stray, sprintf('%s+0x%x %s', $f ? $f->{name} : $j->{sec},
					     $j->{off} - ($f ? $f->{start} : 0), $what);
		}
		tap(!@stray, "$name: $obj: every __mt_*() call and $NOTES store is behind an $KEY site" .
		    (@stray ? '; not: ' . join(', ', @stray) : ''));
	}

	next unless defined $off_dir && %sites_of;
	my $off_path = "$off_dir/$obj";
	unless (-s $off_path) {
		# Kbuild builds the facility's own objects only when it is on.
		if ($own) {
			tap(!-e $off_path, "$name: $obj: the facility's own object, not built when it is off");
			$_->{added} //= 'n/a' for grep { $_->{obj} eq $obj } @rows;
		} else {
			tap(0, "$name: $obj: missing in $off_dir (run make matrix)");
		}
		next;
	}
	my $off = load($off_path);
	my %done;
	for my $b0 (sort keys %sites_of) {
		next if $done{$b0};
		my @members = compare_unit($on, $off, $obj, $b0, \%sites_of);
		$done{$_} = 1 for @members;
		my %m = map { $_ => 1 } @members;
		my $u = $units[-1];
		for my $r (grep { $_->{obj} eq $obj && $m{$_->{base}} } @rows) {
			$r->{added} = $u->{added};
			$r->{unit} = $u;
		}
	}
}

for my $c (@expect_cause) {
	my $w = $cause_seen{$c};
	tap(defined $w, sprintf('%s: a hook site passes cause %d%s:%s', $name, $c,
				$cause_name[$c] ? " ($cause_name[$c])" : '', $w // ' none'));
}
tap($nsites > 0, "$name: $nsites $KEY sites in " . scalar(@objects) . ' objects');

print '1..' . scalar(@tap) . "\n";
my $n = 0;
for my $t (@tap) {
	print(($t->{ok} ? 'ok' : 'not ok') . ' ' . ++$n . " - $t->{msg}\n");
	print "$_\n" for @{$t->{diag}};
}
my $failed = grep { !$_->{ok} } @tap;

# The table: one row per site, then the summary make bench prints (the
# "result:" line is for programs, the "off:" and "except" lines for
# people).
if (defined $table) {
	my @adding = grep { $_->{added} } @units;
	my $nadded = 0;
	$nadded += $_->{added} for @units;
	my $unexplained = grep { !$_->{accepted} } @adding;
	my $w = 12;
	$w = length($_->{obj}) > $w ? length($_->{obj}) : $w for @rows;
	my $fmt = "%-${w}s %-40s %-4s %-18s %-40s %s\n";
	open(my $fh, '>', $table) or die "$P: $table: $!\n";
	printf $fh "hook sites of %s (%s) against %s\n", $on_dir, $name, $off_dir // 'no off build';
	printf $fh $fmt, 'object', 'site', 'nop', 'out of line', 'cause or reason', 'added';
	printf $fh $fmt, $_->{obj}, $_->{where}, $_->{nop} ? "$_->{nop}B" : '-', $_->{hook},
		$_->{why}, $_->{added} // '-' for @rows;
	print $fh "(added: instructions the hooks add to the fall-through path of the site's " .
		"function, against the off build)\n";
	printf $fh "result: sites %d nop %d hooked %d functions %d adding %d added %d " .
		"unexplained %d failed %d\n", $nsites, $nnop, $nhooked, scalar(@units),
		scalar(@adding), $nadded, $unexplained, $failed;
	printf $fh "off: jump-label NOP at %d%s sites, %s\n", $nnop, $nnop == $nsites ? '' : " of $nsites",
		!@units ? 'fall-through paths not compared' :
		'0 added instructions on the fall-through path' .
		(@adding ? sprintf(' of %d of %d functions', @units - @adding, scalar(@units)) : '');
	# Failures besides the functions' counts, which follow.
	my @other = grep { !$_->{ok} && !$_->{unit} } @tap;
	printf $fh "except %d failed check%s: %s\n", scalar(@other), @other == 1 ? '' : 's',
		join('; ', map { $_->{msg} } @other) if @other;
	for my $u (@adding) {
		printf $fh "except %s %s: %d added, %d removed: %s\n", $u->{obj}, $u->{label},
			$u->{added}, $u->{removed},
			$u->{accepted} ? $u->{accepted}[1] : 'NOT EXPLAINED';
	}
	close($fh);
}
exit($failed ? 1 : 0);
