-- Primary keys and the foreign-key indexes of the usual PostgreSQL TPC-H
-- set-ups, built after the load, then statistics for the planner.
alter table region add primary key (r_regionkey);
alter table nation add primary key (n_nationkey);
alter table supplier add primary key (s_suppkey);
alter table customer add primary key (c_custkey);
alter table part add primary key (p_partkey);
alter table partsupp add primary key (ps_partkey, ps_suppkey);
alter table orders add primary key (o_orderkey);
alter table lineitem add primary key (l_orderkey, l_linenumber);
create index on nation (n_regionkey);
create index on supplier (s_nationkey);
create index on customer (c_nationkey);
create index on partsupp (ps_suppkey);
create index on orders (o_custkey);
create index on lineitem (l_partkey, l_suppkey);
analyze;
