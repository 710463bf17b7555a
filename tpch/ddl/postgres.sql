-- The TPC-H tables for PostgreSQL: the columns and types of doris.sql.
-- Keys and indexes come after the load (postgres_indexes.sql).
drop view if exists revenue0;
drop table if exists lineitem, orders, partsupp, part, customer, supplier, nation, region;

create table region (
    r_regionkey  int not null,
    r_name       varchar(25) not null,
    r_comment    varchar(152)
);

create table nation (
    n_nationkey  int not null,
    n_name       varchar(25) not null,
    n_regionkey  int not null,
    n_comment    varchar(152)
);

create table supplier (
    s_suppkey    int not null,
    s_name       varchar(25) not null,
    s_address    varchar(40) not null,
    s_nationkey  int not null,
    s_phone      varchar(15) not null,
    s_acctbal    decimal(15, 2) not null,
    s_comment    varchar(101) not null
);

create table customer (
    c_custkey    int not null,
    c_name       varchar(25) not null,
    c_address    varchar(40) not null,
    c_nationkey  int not null,
    c_phone      varchar(15) not null,
    c_acctbal    decimal(15, 2) not null,
    c_mktsegment varchar(10) not null,
    c_comment    varchar(117) not null
);

create table part (
    p_partkey     int not null,
    p_name        varchar(55) not null,
    p_mfgr        varchar(25) not null,
    p_brand       varchar(10) not null,
    p_type        varchar(25) not null,
    p_size        int not null,
    p_container   varchar(10) not null,
    p_retailprice decimal(15, 2) not null,
    p_comment     varchar(23) not null
);

create table partsupp (
    ps_partkey    int not null,
    ps_suppkey    int not null,
    ps_availqty   int not null,
    ps_supplycost decimal(15, 2) not null,
    ps_comment    varchar(199) not null
);

create table orders (
    o_orderkey      bigint not null,
    o_custkey       int not null,
    o_orderstatus   varchar(1) not null,
    o_totalprice    decimal(15, 2) not null,
    o_orderdate     date not null,
    o_orderpriority varchar(15) not null,
    o_clerk         varchar(15) not null,
    o_shippriority  int not null,
    o_comment       varchar(79) not null
);

create table lineitem (
    l_orderkey      bigint not null,
    l_partkey       int not null,
    l_suppkey       int not null,
    l_linenumber    int not null,
    l_quantity      decimal(15, 2) not null,
    l_extendedprice decimal(15, 2) not null,
    l_discount      decimal(15, 2) not null,
    l_tax           decimal(15, 2) not null,
    l_returnflag    varchar(1) not null,
    l_linestatus    varchar(1) not null,
    l_shipdate      date not null,
    l_commitdate    date not null,
    l_receiptdate   date not null,
    l_shipinstruct  varchar(25) not null,
    l_shipmode      varchar(10) not null,
    l_comment       varchar(44) not null
);

create view revenue0 (supplier_no, total_revenue) as
select
    l_suppkey,
    sum(l_extendedprice * (1 - l_discount))
from
    lineitem
where
    l_shipdate >= date '1996-01-01'
    and l_shipdate < date '1996-01-01' + interval '3' month
group by
    l_suppkey;
