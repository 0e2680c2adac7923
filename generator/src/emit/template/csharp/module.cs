{{header}}//
// Slots of the {{scheme}} scheme, both ways: the slot of a key, and a key for a slot in
// O(1). One C# source file for .NET and Mono, base class library only (StackExchange.Redis
// and NRedisStack take the byte arrays as RedisKey). Keys are byte arrays; a string key is
// encoded as UTF-8 first. A slot is an int from FirstSlot to LastSlot.
//
//   {{class}}.Slot("123456789")  == {{check_slot}}
//   {{class}}.TagForSlot({{class}}.FirstSlot)  -> the bytes of "{{tag}}"
//   {{class}}.KeyForSlot({{example_prefix}}, {{class}}.FirstSlot, {{example_suffix}})  -> the bytes of "{{key}}"
//   {{class}}.TagsForSlot({{class}}.FirstSlot)  -> a lazy IEnumerable<byte[]>, that tag first
//
// Refused calls throw {{class}}.SlotOutOfRangeException (an ArgumentOutOfRangeException)
// or {{class}}.{{key_error}}Exception (an ArgumentException), with the rule and the way out.

using System;
using System.Collections.Generic;
using System.Text;

#if NETCOREAPP3_0_OR_GREATER
// Where nullable reference types are on: SharedHashtag answers null for none, as its
// documentation says (C# 7, which Mono's mcs compiles, cannot write `byte[]?`).
#pragma warning disable CS8600, CS8603, CS8625
#endif

{{class_text}}
